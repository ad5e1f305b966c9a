// Months of a year ("March 2025", "Sept. 2024", "2025-03") as "YYYY-MM". Not taken out of the numbers: the
// year of "sales in March 2025" may be a year parameter's; a month parameter claims the span when it takes it.
import type { Mention } from "./span.ts";

export interface MonthMention extends Mention {
  /** "YYYY-MM". */
  value: string;
}

const NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const WORDED =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?\s+(?:of\s+)?(\d{4})\b/gi;
const ISO = /\b(\d{4})-(0[1-9]|1[0-2])\b(?!-\d)/g;

export function findMonths(text: string): MonthMention[] {
  const found: MonthMention[] = [];
  for (const m of text.matchAll(WORDED)) {
    const month = NAMES.indexOf((m[1] as string).slice(0, 3).toLowerCase()) + 1;
    found.push({
      text: m[0],
      start: m.index,
      end: m.index + m[0].length,
      value: `${m[2]}-${String(month).padStart(2, "0")}`,
    });
  }
  for (const m of text.matchAll(ISO))
    found.push({ text: m[0], start: m.index, end: m.index + m[0].length, value: `${m[1]}-${m[2]}` });
  return found.sort((a, b) => a.start - b.start);
}
