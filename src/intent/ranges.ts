// A number at one end of a range ("between 1965 and 1975", "from 85,000 to 105,000", "300k-450k"): the first
// goes to a parameter that names a start or a minimum, the second to one that names an end or a maximum.
import type { Param } from "./filler.ts";
import type { Span } from "./opaque.ts";

const START_WORDS = /^(?:from|min|minimum|start|lower|low|least|earliest|begin|since|floor)$/;
const END_WORDS = /^(?:to|max|maximum|end|upper|high|most|latest|until|through|ceiling)$/;
const NUMBER = String.raw`[$£€]?\d[\d,.]*\s*[kKmM]?`;
/** What follows a range's first number ("to 1975", "- 450k"; "and 1975" only after "between"). */
const TO_SECOND = new RegExp(String.raw`^\s*[kKmM]?\s*(?:to|-|–|—)\s*${NUMBER}`);
const AND_SECOND = new RegExp(String.raw`^\s*[kKmM]?\s*and\s*${NUMBER}`);
const BETWEEN = /\bbetween\s*[$£€]?$/i;
/** What comes before a range's second number. */
const FROM_FIRST = new RegExp(
  String.raw`\bbetween\s+${NUMBER}\s*(?:\S+\s+)?and\s*[$£€]?$|${NUMBER}\s*(?:\S+\s+)?(?:-|–|—|\bto)\s*[$£€]?$`,
  "i",
);

/** Which end of a range the number at `at` is, if it is one. */
export function rangeEnd(text: string, at: Span): "start" | "end" | undefined {
  const before = text.slice(Math.max(0, at.start - 40), at.start);
  const after = text.slice(at.end, at.end + 40);
  if (FROM_FIRST.test(before)) return "end";
  if (TO_SECOND.test(after) || (AND_SECOND.test(after) && BETWEEN.test(before))) return "start";
  return undefined;
}

/** Whether a parameter's own words name the given end of a range ("published_from", "salary_max"). */
export function namesRangeEnd(param: Param, end: "start" | "end"): boolean {
  return param.words.some((w) => (end === "start" ? START_WORDS : END_WORDS).test(w));
}
