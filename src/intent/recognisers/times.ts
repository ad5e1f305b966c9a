// Times of day ("3pm", "9:30 am", "15:00", "noon") and ISO date-times ("2024-07-01 15:00", "2021-01-01T00:00:00Z").
// A date with a time of day is one value; its time is not read again as a time of its own.
import { allMatches, type Mention, within } from "./span.ts";

/** A time of day as written: "3pm", "9:30 am", "15:00", "noon". */
export const CLOCK = String.raw`\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|noon|midday|midnight`;

export interface Times {
  times: Mention[];
  datetimes: Mention[];
}

export function findTimes(text: string): Times {
  const datetimes = allMatches(
    text,
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)\b/g,
  ).filter((d) => /\d:\d/.test(d.text));
  const times = allMatches(text, new RegExp(String.raw`\b(${CLOCK})\b`, "gi"), 1).filter(
    (t) => !within(datetimes)(t),
  );
  return { times, datetimes };
}
