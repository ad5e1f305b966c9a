// What every recogniser returns: a typed value with the span of the request it was read from.
import type { Span } from "../opaque.ts";

export interface Mention extends Span {
  /** The request's own characters. */
  text: string;
}

/** Every match of a global pattern; `group` -1 takes the first capture group that matched (alternatives). */
export function allMatches(text: string, pattern: RegExp, group = 0): Mention[] {
  const out: Mention[] = [];
  for (const match of text.matchAll(pattern)) {
    const value = group === -1 ? match.slice(1).find((g) => g !== undefined) : match[group];
    if (value === undefined) continue;
    const start = match.index + match[0].indexOf(value);
    out.push({ text: value, start, end: start + value.length });
  }
  return out;
}

/** Whether a span lies inside one of `spans`. */
export function within(spans: Span[]): (m: Span) => boolean {
  return (m) => spans.some((s) => m.start >= s.start && m.end <= s.end);
}

/**
 * The word that ends just before `end` (only whitespace between), lower case, or "". Scanned backwards by
 * hand: a regex anchored at the end of the text before each mention retries every start in a run of
 * letters, which made 2,000 letters and 400 numbers cost minutes.
 */
export function wordBefore(text: string, end: number): string {
  let stop = end;
  while (stop > 0 && /\s/.test(text[stop - 1] as string)) stop--;
  let start = stop;
  while (start > 0 && stop - start < 40 && /[a-zA-Z']/.test(text[start - 1] as string)) start--;
  return text.slice(start, stop).toLowerCase();
}

/**
 * The word a value is labelled by: the one before `start` across spaces and a colon ("background: #fafafa",
 * "candidate jane@x.org"), lower case, or "". Scanned backwards by hand, as `wordBefore` is.
 */
export function labelBefore(text: string, start: number): string {
  let stop = start;
  // A value in quotes is labelled by the word before its opening quote ("barcode '3123…'").
  while (stop > 0 && /[\s:'"“”‘’]/.test(text[stop - 1] as string)) stop--;
  let begin = stop;
  while (begin > 0 && stop - begin < 40 && /[a-zA-Z]/.test(text[begin - 1] as string)) begin--;
  return text.slice(begin, stop).toLowerCase();
}

/** The word that starts right after `start` (only whitespace between), lower case, or "". */
export function wordAfter(text: string, start: number): string {
  // "72-hour", "a 30-year loan": the word a hyphen joins to the number is the word after it.
  return /^(?:\s*|-)([a-zA-Z]+)/.exec(text.slice(start, start + 60))?.[1]?.toLowerCase() ?? "";
}

/** All that stands between two items of one list: a comma, "and" or "or" ("5, 10 and 20", "a@x, b@y"). */
export const LIST_JOINER = /^\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or)\s+)$/i;
