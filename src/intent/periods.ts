// The period a number is given per ("£1,150 a month", "2,400/year", "300 monthly"), and which parameters
// name that period ("monthly_rent", "Annual running costs"): a rate's number goes to the parameter of its
// period, not to one whose word stands elsewhere in the request. And how often something happens in a
// period ("compounded once a year", "twice a month") for a count per that period.
import type { Filler, Param } from "./filler.ts";
import { numberWord } from "./recognisers/number-words.ts";

/** The words for a period and its adjective, as a number's rate names it ("1,150 a month": monthly). */
const PERIODS: Readonly<Record<string, string>> = {
  day: "daily|per day|a day",
  week: "weekly|per week|a week",
  month: "monthly|per month|a month",
  year: "annual|annually|yearly|per year|a year|per annum",
};
const PERIOD_OF: Readonly<Record<string, string>> = {
  annum: "year",
  daily: "day",
  weekly: "week",
  monthly: "month",
  yearly: "year",
  annually: "year",
};
/** How far a named period outweighs a parameter's own word elsewhere ("£240,000 rents for £1,150 a month"). */
export const PERIOD_MARGIN = 0.5;

/**
 * The period a number is given per ("£1,150 a month", "2,400/year", "300 monthly"), as a test of a
 * parameter's name and description; undefined when none follows it.
 */
export function periodAfter(text: string, end: number): RegExp | undefined {
  const after = text.slice(end, end + 24).toLowerCase();
  const match =
    /^\s*(?:(?:a|an|per|each|every)\s+|\/\s*)(day|week|month|year|annum)\b|^\s*(daily|weekly|monthly|yearly|annually)\b/.exec(
      after,
    );
  const written = match?.[1] ?? match?.[2];
  const key = written ? (PERIOD_OF[written] ?? written) : undefined;
  const words = key ? PERIODS[key] : undefined;
  return words ? new RegExp(`\\b(?:${words})\\b`) : undefined;
}

const TIMES: Readonly<Record<string, number>> = { once: 1, twice: 2, thrice: 3 };
const FREQUENCY =
  /\b(?:(once|twice|thrice)|(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+times)\s+(?:a|an|per|every|each)\s+(day|week|month|year)\b/gi;

/**
 * "compounded once a year", "billed 4 times a year": the count goes to the one open numeric parameter that
 * names a count per that period ("compounds_per_year", "Payments per month").
 */
export function fillFrequencies(f: Filler, params: Param[]): void {
  for (const match of f.text.matchAll(FREQUENCY)) {
    const span = { start: match.index, end: match.index + match[0].length };
    if (!f.free(span)) continue;
    const written = (match[1] ?? match[2] ?? "").toLowerCase();
    const count = TIMES[written] ?? numberWord(written) ?? Number(written);
    const per = new RegExp(`\\bper (?:${match[3]?.toLowerCase()})\\b`);
    const takers = params.filter(
      (p) => !f.has(p) && (p.type === "integer" || p.type === "number") && per.test(p.hint),
    );
    const [taker, other] = takers;
    if (taker && !other && Number.isFinite(count))
      f.set(taker, count, span, "how often in the period its parameter counts", "kind_cue");
  }
}
