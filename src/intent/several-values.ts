// A request that names several values for one single-valued parameter ("the weather in Paris and London",
// "20 minutes and 15 minutes respectively") asks for several calls, not one: running the first alone
// would answer half of it and look complete. Such a parameter is reported as ambiguous, with every value,
// so the caller asks, or splits the request into one call per value.
import { sameKindUnit } from "./described-units.ts";
import type { Filler, MissingField, Param } from "./filler.ts";
import type { Mention, NumberMention } from "./mentions.ts";
import type { Span } from "./opaque.ts";
import { findPhrases } from "./recognisers/phrases.ts";
import { LIST_JOINER } from "./recognisers/span.ts";

/**
 * Numbers joined by "and", "or" or a comma with the same word after them ("20 minutes and 15 minutes"), or
 * in one list with nothing but joiners between them ("5, 10 and 20 miles"); not a range ("between 5 and 10").
 */
function sameKindNumbers(f: Filler, placed: NumberMention): NumberMention[] {
  const numbers = f.mentions.numbers.filter((n) => !n.words);
  const at = numbers.indexOf(placed);
  const list = [placed];
  for (let i = at + 1; i < numbers.length; i++) {
    const previous = list.at(-1) as NumberMention;
    const next = numbers[i] as NumberMention;
    if (!LIST_JOINER.test(f.text.slice(previous.end, next.start))) break;
    list.push(next);
  }
  for (let i = at - 1; i >= 0; i--) {
    const previous = numbers[i] as NumberMention;
    if (!LIST_JOINER.test(f.text.slice(previous.end, (list[0] as NumberMention).start))) break;
    list.unshift(previous);
  }
  const range = (list[0] as NumberMention).previous === "between" && list.length === 2;
  return f.mentions.numbers.filter(
    (n) =>
      n !== placed &&
      f.free(n) &&
      !n.words &&
      ((list.includes(n) && !range) || (n.next !== "" && n.next === placed.next && joined(f, n, placed))),
  );
}

/** Dates or quoted texts joined to the placed one by "and", "or" or a comma ("on 2022-01-01 and 2022-02-01"). */
function joinedTo(f: Filler, placed: Mention, kind: readonly Mention[]): Mention[] {
  return kind.filter((m) => m.start !== placed.start && f.free(m) && joined(f, m, placed));
}

/** Whether "and", "or" or a comma stands between two values, within a few words. */
function joined(f: Filler, a: Span, b: Span): boolean {
  return /^[\s\S]{0,40}?\b(?:and|or)\b|,/.test(
    f.text.slice(Math.min(a.end, b.end), Math.max(a.start, b.start)),
  );
}

/** A mention's text and span, without its other fields. */
const asValue = ({ text, start, end }: Mention) => ({ text, start, end });

/** Units of the same kind listed after a target unit ("to EUR and GBP", "to miles, feet and inches"). */
function moreUnits(f: Filler, span: Span, unit: string): { text: string; start: number; end: number }[] {
  const more: { text: string; start: number; end: number }[] = [];
  const next = /^(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)([A-Za-z°][A-Za-z°/²³]*)/;
  let at = span.end;
  for (let m = next.exec(f.text.slice(at)); m && more.length < 8; m = next.exec(f.text.slice(at))) {
    const word = m[1] as string;
    const start = at + m[0].length - word.length;
    if (!sameKindUnit(unit, word) || !f.free({ start, end: start + word.length })) break;
    more.push({ text: word, start, end: start + word.length });
    at = start + word.length;
  }
  return more;
}

/** A number's written text without the spaces around it, and the span of that text. */
function trimmed(n: NumberMention): { text: string; start: number; end: number } {
  const lead = n.text.length - n.text.trimStart().length;
  const text = n.text.trim();
  return { text, start: n.start + lead, end: n.start + lead + text.length };
}

export function severalValues(f: Filler, params: Param[]): MissingField[] {
  const missing: MissingField[] = [];
  const scalar = (field: string) => params.find((p) => p.name === field && p.type !== "array");
  const respectively = /\brespectively\b/i.test(f.text);
  for (const value of f.filled) {
    const param = value.source === "query" && value.span ? scalar(value.field) : undefined;
    if (!param || !value.span) continue;
    const span = value.span;
    let others: { text: string; start: number; end: number }[] = [];
    const sameSpan = (m: Mention) => m.start === span.start && m.end === span.end;
    const date = f.mentions.dates.find(sameSpan);
    const quoted = value.evidence === "quoted" ? f.mentions.quoted.find(sameSpan) : undefined;
    if (value.evidence === "units" && typeof value.value === "string")
      others = moreUnits(f, span, value.value);
    else if (date) others = joinedTo(f, date, f.mentions.dates).map(asValue);
    else if (quoted) others = joinedTo(f, quoted, f.mentions.quoted).map(asValue);
    else if (typeof value.value === "string" && value.evidence?.startsWith("text_")) {
      const phrases = findPhrases(f.text);
      const own = phrases.find((p) => p.start <= span.start && p.end >= span.end);
      // A value of the list another parameter took is that one's ("between Boston and Denver": a start
      // and an end), not a second value for this one; unless this value was taken twice, once in a list.
      const shared =
        own !== undefined &&
        f.filled.some(
          (v) => v !== value && v.span !== undefined && v.span.start <= own.start && v.span.end >= own.end,
        );
      if (own?.list !== undefined)
        others = phrases
          .filter((p) => p.list === own.list && p !== own && (shared || f.free(p)))
          .map(asValue);
    } else if (typeof value.value === "number") {
      const own = f.mentions.numbers.find((n) => n.start === span.start && n.end === span.end);
      if (own) others = sameKindNumbers(f, own).map(trimmed);
      if (others.length === 0 && respectively && own)
        others = f.mentions.numbers.filter((n) => n !== own && f.free(n) && !n.words).map(trimmed);
    }
    if (others.length === 0) continue;
    const several = [{ text: span.text, start: span.start, end: span.end }, ...others].sort(
      (a, b) => a.start - b.start,
    );
    missing.push({
      field: param.name,
      schema: param.schema,
      reason: `the request names several values for it (${several.map((v) => v.text).join(", ")}): one call each?`,
      several,
    });
  }
  return missing;
}
