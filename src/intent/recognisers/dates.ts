// Calendar dates in a request: ISO dates ("2024-01-31"), "today", and dates in words ("July 20 1969",
// "31 January 2024", "Jan 5th, 2024"), each as YYYY-MM-DD. Dates in words are read by chrono-node (MIT, no
// dependencies, the maintained reader of English dates); only dates whose day, month and year are all
// stated are kept, or whose year the next date of the sentence states, so the value never depends on the
// clock of the machine that reads it.
// The English reader alone: the package's root also loads its 15 other languages, which this never uses.
import type { ParsedComponents } from "chrono-node";
import { strict } from "chrono-node/en";
import { allMatches, type Mention } from "./span.ts";
import { CLOCK } from "./times.ts";

export interface DateMention extends Mention {
  /** YYYY-MM-DD, or "today". */
  value: string;
}

/** chrono reads a bounded window: past it a request is pasted data, not a sentence that names a date. */
const WORDS_WINDOW = 2_000;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * The year of a date written without one, from the next date of the same sentence that has one ("between
 * December 20 and December 31, 2024", "check in on 6 July and check out on 10 July 2025"); a day after
 * that date's is in the year before ("Dec 28 to Jan 3, 2025").
 */
function yearFromNext(
  text: string,
  all: [ParsedComponents, number, string][],
  i: number,
): number | undefined {
  const [date, from, said] = all[i] as [ParsedComponents, number, string];
  const following = all[i + 1];
  const next = following?.[0].isCertain("year") ? following : undefined;
  if (!next) return undefined;
  const between = text.slice(from + said.length, next[1]);
  if (between.length > 60 || /[.?!;]\s/.test(between)) return undefined;
  const year = next[0].get("year") ?? 0;
  const later =
    (date.get("month") ?? 0) * 100 + (date.get("day") ?? 0) >
    (next[0].get("month") ?? 0) * 100 + (next[0].get("day") ?? 0);
  return later ? year - 1 : year;
}

const TIME_AFTER = new RegExp(String.raw`\s*(?:,|at|@)?\s*(?:${CLOCK})\s*$`, "i");
const TIME_BEFORE = new RegExp(String.raw`^\s*(?:${CLOCK})\s*(?:on|,)?\s*`, "i");

/**
 * The date's own words, without a time of day chrono read with it ("11 November 2025 at 2:15 pm", "11 pm
 * on August 9, 2025"): the time is a value of its own, joined to the date again where a parameter takes both.
 */
function withoutTime(from: number, said: string): { start: number; end: number; text: string } {
  const after = TIME_AFTER.exec(said);
  const before = TIME_BEFORE.exec(said);
  let start = from;
  let text = said;
  if (after && after.index > 0) text = text.slice(0, after.index);
  else if (before && before[0].length < text.length) {
    start += before[0].length;
    text = text.slice(before[0].length);
  }
  return { start, end: start + text.length, text };
}

export function findDates(text: string): DateMention[] {
  const iso = [
    ...allMatches(text, /\b(\d{4}-\d{2}-\d{2})\b|\b(today)\b/gi, -1).map((m) => ({
      ...m,
      value: m.text.toLowerCase() === "today" ? "today" : m.text,
    })),
    ...slashedDates(text),
  ];
  const taken = (start: number, end: number) => iso.some((d) => start < d.end && end > d.start);
  const words: DateMention[] = [];
  // Only text with a month name or an ordinal day can hold a date in words; most requests skip chrono.
  const window = text.slice(0, WORDS_WINDOW);
  if (
    /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s|\d(?:st|nd|rd|th)\b/i.test(window)
  ) {
    const all: [ParsedComponents, number, string][] = [];
    for (const result of strict.parse(window)) {
      // A range ("Jan 5 to March 31, 2024") is two dates: each keeps its own part of the span.
      const joint = result.end ? /\s*(?:to|until|till|through|and|-|–)\s*/.exec(result.text) : null;
      const parts: [ParsedComponents, number, string][] = joint
        ? [
            [result.start, result.index, result.text.slice(0, joint.index)],
            [
              result.end as ParsedComponents,
              result.index + joint.index + joint[0].length,
              result.text.slice(joint.index + joint[0].length),
            ],
          ]
        : [[result.start, result.index, result.text]];
      all.push(...parts);
    }
    for (const [i, [date, from, said]] of all.entries()) {
      if (!(date.isCertain("month") && date.isCertain("day"))) continue;
      const year = date.isCertain("year") ? date.get("year") : yearFromNext(window, all, i);
      if (year === undefined || year === null || taken(from, from + said.length)) continue;
      const value = `${pad(year, 4)}-${pad(date.get("month") ?? 0)}-${pad(date.get("day") ?? 0)}`;
      const own = withoutTime(from, said);
      // A range's time alone ("from 5:30 pm to 11 pm on August 9") takes its day from the end: no date.
      if (/\d/.test(own.text)) words.push({ ...own, value });
    }
  }
  return [...iso, ...words].sort((a, b) => a.start - b.start);
}

/**
 * Dates in figures with slashes: year first ("2025/11/04"), or a day and a month in either order where one
 * of them is over 12 and so can only be the day ("7/15/2025", "15/7/2025"); "3/4/2025" is left unread.
 */
function slashedDates(text: string): DateMention[] {
  const dates: DateMention[] = [];
  for (const m of text.matchAll(
    /(?<![\d/.])(?:(\d{4})\/(\d{1,2})\/(\d{1,2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))(?![\d/])/g,
  )) {
    const [year, a, b] = m[1] ? [m[1], m[2], m[3]] : [m[6], m[4], m[5]];
    const [first, second] = [Number(a), Number(b)];
    const [month, day] = m[1]
      ? [first, second]
      : first > 12
        ? [second, first]
        : second > 12
          ? [first, second]
          : [0, 0];
    if (month < 1 || month > 12 || day < 1 || day > 31) continue;
    const start = m.index ?? 0;
    dates.push({ start, end: start + m[0].length, text: m[0], value: `${year}-${pad(month)}-${pad(day)}` });
  }
  return dates;
}
