// Times of day to the parameters that take one by their description ("HH:MM, 24-hour"): "from 5:30 pm to
// 11 pm" to a start and an end, "by 07:00" to a deadline, each written as the description asks.
import { assignBest, type Candidate } from "./assign.ts";
import type { Filler, Param } from "./filler.ts";
import { CUE, MAX_ASSIGNED } from "./place-numbers.ts";
import type { Mention } from "./recognisers/span.ts";
import { isDateParam } from "./schema-cues.ts";

/** "3pm", "9:30 am", "15:00" as "HH:MM"; undefined for an hour that is no time of day. */
export function clock24(text: string): string | undefined {
  const named = { noon: "12:00", midday: "12:00", midnight: "00:00" }[text.trim().toLowerCase()];
  if (named) return named;
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const half = match[3]?.toLowerCase();
  if (half && (hour < 1 || hour > 12)) return undefined;
  if (half === "pm" && hour < 12) hour += 12;
  if (half === "am" && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return undefined;
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** A parameter described as a clock time in 24-hour "HH:MM" ("Start time, HH:MM 24-hour"). */
export function wantsClock24(param: Param): boolean {
  return /\bhh:mm\b|\b24-?hour\b/.test(param.hint);
}

/** A string parameter for a time of day by its description alone, and not a date-time. */
export function takesTimeOfDay(param: Param): boolean {
  return (
    param.type === "string" &&
    wantsClock24(param) &&
    !/\byyyy\b|\bdate\b/.test(param.hint) &&
    !isDateParam(param)
  );
}

/** Words before a time that say it starts a span, or ends one ("from 9 am to 5 pm", "ready by 07:00"). */
const STARTS = /\b(?:from|since|starting|start|between|after|at)\s*$/i;
const ENDS = /\b(?:to|until|till|through|and|before|by)\s*$/i;
const START_WORDS = /^(?:start|from|begin|pickup|depart|departure|open|opens)$/;
const END_WORDS = /^(?:end|to|until|finish|ready|return|due|close|closes|by)$/;

export function placeTimesOfDay(f: Filler, params: Param[]): void {
  const open = params.filter((p) => !f.has(p) && takesTimeOfDay(p));
  const times = f.mentions.times.filter((t) => f.free(t)).slice(0, MAX_ASSIGNED);
  if (open.length === 0 || times.length === 0) return;
  const candidates: Candidate<Mention, Param>[] = [];
  for (const [i, time] of times.entries()) {
    const before = f.text.slice(Math.max(0, time.start - 12), time.start);
    for (const [j, param] of open.entries()) {
      const isStart = param.words.some((w) => START_WORDS.test(w));
      const isEnd = param.words.some((w) => END_WORDS.test(w));
      const cued = (isStart && STARTS.test(before)) || (isEnd && ENDS.test(before));
      // An optional time takes a value only on its cue, or when it is the only one and so is the time.
      if (!cued && !param.required && !(open.length === 1 && times.length === 1)) continue;
      const weight = CUE.order / (1 + Math.abs(i - j)) + (cued ? CUE.ownWord : 0);
      candidates.push({ mention: time, param, weight });
    }
  }
  for (const c of assignBest(times, open, candidates)) {
    const clock = clock24(c.mention.text);
    if (clock) f.set(c.param, clock, c.mention, "time of day, as the description writes it", "shape");
  }
}
