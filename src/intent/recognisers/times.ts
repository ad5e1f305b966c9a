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

const DATETIME_PARTS =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A date-time as RFC 3339 ("2025-11-20T00:00:00Z"), the form a `date-time` format takes, when its zone is
 * written in it or right after it ("2025-11-20 00:00 UTC"); otherwise undefined: a wall time in no zone
 * is not one.
 */
export function asRfc3339(written: string, following: string): string | undefined {
  const parts = DATETIME_PARTS.exec(written.trim());
  if (!parts) return undefined;
  const [, date, hour = "", minute, second = "00", offset] = parts;
  const zone = offset ?? (/^\s*(?:utc|gmt|z)\b/i.test(following) ? "Z" : undefined);
  if (zone === undefined) return undefined;
  const normalZone = zone.toUpperCase() === "Z" ? "Z" : zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  return `${date}T${hour.padStart(2, "0")}:${minute}:${second}${normalZone}`;
}
