// Currency names as written ("euros", "Canadian dollars", "yen", "$") to their ISO 4217 codes, for a
// parameter that takes a code. The names are the runtime's own (Intl.DisplayNames), so no table goes stale;
// a bare word several currencies share goes to the one it most often means ("dollars" is USD).
import type { Mention } from "./recognisers/span.ts";

const display = new Intl.DisplayNames(["en"], { type: "currency" });

const BY_NAME = new Map<string, string>();
const CODES = new Set(Intl.supportedValuesOf("currency"));
for (const code of CODES) {
  const name = display.of(code)?.toLowerCase();
  if (!name || name === code.toLowerCase()) continue;
  BY_NAME.set(name, code);
  BY_NAME.set(`${name}s`, code);
  // "Japanese Yen" is also "yen": a last word only this currency's name ends with.
  const last = name.split(" ").at(-1) as string;
  BY_NAME.set(BY_NAME.has(last) ? `\u0000${last}` : last, code);
}
for (const [word, code] of [
  ["dollar", "USD"],
  ["dollars", "USD"],
  ["bucks", "USD"],
  ["us dollars", "USD"],
  ["pound", "GBP"],
  ["pounds", "GBP"],
  ["pounds sterling", "GBP"],
  ["quid", "GBP"],
  ["sterling", "GBP"],
  ["euro", "EUR"],
  ["euros", "EUR"],
  ["yen", "JPY"],
  ["yuan", "CNY"],
  ["rupee", "INR"],
  ["rupees", "INR"],
  ["$", "USD"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["¥", "JPY"],
] as const)
  BY_NAME.set(word, code);

/** Whether a unit as written is a currency's code ("EUR"): three capitals. */
export function isCurrencyCode(text: string): boolean {
  return /^[A-Z]{3}$/.test(text.trim());
}

/** The ISO 4217 code a currency name as written stands for, or undefined. */
export function currencyCode(text: string): string | undefined {
  const trimmed = text.trim();
  if (isCurrencyCode(trimmed)) return trimmed;
  return BY_NAME.get(trimmed.toLowerCase().replace(/\s+/g, " "));
}

/**
 * Whether a parameter takes a currency's code: its description says so, its pattern is three letters, or
 * it is a currency parameter at all (ISO codes are the form currency fields take; "Canadian" cut from
 * "Canadian dollars" is no currency).
 */
export function takesCurrencyCode(hint: string, pattern: unknown): boolean {
  return (
    /\biso[ -]?4217\b|\bcurrenc(?:y|ies)\b/.test(hint) ||
    (typeof pattern === "string" && /^\^?\[A-Za-z\]\{3\}\$?$/.test(pattern))
  );
}

/** A currency named in a request, with its ISO 4217 code. */
export interface CurrencyMention extends Mention {
  code: string;
}

const WORD = /[A-Za-z]+|[$€£¥]/g;
// Last words of currency names that are ordinary English words: alone, they name no currency.
const ENGLISH = new Set([
  "mark",
  "real",
  "sol",
  "rights",
  "gold",
  "rand",
  "dong",
  "won",
  "leone",
  "lev",
  "kip",
  "tala",
]);

/**
 * Every currency a request names by its name or symbol ("British pounds", "yen", "€"), the longest name
 * first ("US dollars" over "dollars"), or by a code among the runtime's ("EUR").
 */
export function findCurrencies(text: string): CurrencyMention[] {
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const out: CurrencyMention[] = [];
  for (let i = 0; i < words.length; i++) {
    const first = words[i] as (typeof words)[number];
    for (let n = Math.min(3, words.length - i); n >= 1; n--) {
      const last = words[i + n - 1] as (typeof words)[number];
      const written = text.slice(first.start, last.end);
      // Words of one name are separated by spaces alone.
      if (/[^\sA-Za-z$€£¥]/.test(written)) continue;
      // In running text only a code the runtime knows is a currency ("the API" is none).
      const code = isCurrencyCode(written) && !CODES.has(written) ? undefined : currencyCode(written);
      if (!code || (n === 1 && ENGLISH.has(written.toLowerCase()))) continue;
      out.push({ text: written, start: first.start, end: last.end, code });
      i += n - 1;
      break;
    }
  }
  return out;
}
