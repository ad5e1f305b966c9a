// Currencies named in words or symbols to currency parameters, as ISO codes: the source and the target of
// an exchange by the words around them ("from British pounds to Japanese yen", "500 US dollars in euros").
import { findCurrencies, takesCurrencyCode } from "./currencies.ts";
import type { Filler, Param } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { wordBefore } from "./recognisers/span.ts";

/** The currency is an amount's: right after a number, or a symbol right before one. */
function ofAmount(f: Filler, c: Span): boolean {
  return (
    /\d\s*$/.test(f.text.slice(Math.max(0, c.start - 4), c.start)) ||
    /^\s?\d/.test(f.text.slice(c.end, c.end + 2))
  );
}

const TARGET = /^(?:to|target|dest|destination|quote|output|into)$/;
const SOURCE = /^(?:from|source|base|original|input)$/;

export function fillCurrencies(f: Filler, params: Param[]): void {
  const open = params.filter(
    (p) => p.type === "string" && !f.has(p) && takesCurrencyCode(p.hint, p.schema.pattern),
  );
  if (open.length === 0) return;
  const named = findCurrencies(f.text).filter((c) => f.free(c));
  if (named.length === 0) return;
  const target = open.find((p) => p.words.some((w) => TARGET.test(w)));
  const source = open.find((p) => p !== target && p.words.some((w) => SOURCE.test(w)));
  // The same currency named twice is one value ("dollars … the dollar amount").
  const distinct = named.filter((c, i) => named.findIndex((d) => d.code === c.code) === i);
  // A symbol written on the amount ("$6,500") names its currency, and leaves the amount to its parameter.
  const place = (param: Param, c: (typeof named)[number], how: string) =>
    f.set(param, c.code, c, how, "enum", !ofAmount(f, c));
  if (source && target) {
    if (distinct.length !== 2) return;
    // "to"/"into"/"in" before a currency makes it the target; the currency of the amount ("500 US
    // dollars", "$500") is the source ("how many Canadian dollars for 500 US dollars"); otherwise the first
    // named is the source.
    const toIndex = distinct.findIndex((c) => /^(?:to|into|in)$/.test(wordBefore(f.text, c.start)));
    const amountIndex = distinct.findIndex((c) => ofAmount(f, c));
    const second = toIndex === 0 || (toIndex === -1 && amountIndex === 1);
    const [from, to] = second ? distinct.toReversed() : distinct;
    if (from && to) {
      place(source, from, "currency named as the source");
      place(target, to, "currency named as the target");
    }
    return;
  }
  // One currency parameter and one currency named.
  const [only] = open;
  const [currency] = distinct;
  if (only && currency && open.length === 1 && distinct.length === 1) place(only, currency, "currency named");
}
