// Values with a shape of their own (dates, versions, colours, date-times, times, cron lines, expressions)
// to the parameters whose schema names that shape; dates in one assignment.
import { assignBest, type Candidate } from "./assign.ts";
import { inDescribedFormat } from "./described-dates.ts";
import type { Filler, MissingField, Param } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { CUE, MAX_ASSIGNED, namesWord } from "./place-numbers.ts";
import { clock24, takesTimeOfDay, wantsClock24 } from "./place-times.ts";
import { labelBefore } from "./recognisers/span.ts";
import { asRfc3339 } from "./recognisers/times.ts";
import { findWordedChains } from "./recognisers/worded-chains.ts";
import { findWordedExpressions } from "./recognisers/worded-expressions.ts";
import { isDateParam, matchesPattern } from "./schema-cues.ts";

/** An ISO date right before or after a time of day, joined by "on", "at" or a comma, or after its place. */
function dateBeside(f: Filler, time: Span): { value: string; start: number; end: number } | undefined {
  return f.mentions.dates.find(
    (d) =>
      f.free(d) &&
      /^\d{4}-\d{2}-\d{2}$/.test(d.value) &&
      // "3pm on 2024-07-01", "9am in Los Angeles on 2025-03-10" (the place between them is the time's),
      // "09:30 Berlin time on Monday 2025-11-03", "2024-07-01 at 3pm".
      ((d.start >= time.end &&
        d.start - time.end <= 60 &&
        /^\s*(?:(?:in|at)\s+[\p{L} .'-]{1,40}?\s+|[\p{L} .'-]{1,40}?\s+time\s+(?:\(\s*[A-Za-z]{2,5}\s*\)\s+)?)?(?:on|,)?\s*(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?$/iu.test(
          f.text.slice(time.end, d.start),
        )) ||
        (d.end <= time.start && /^\s*(?:at|,)?\s*$/i.test(f.text.slice(d.end, time.start))) ||
        // "march 3rd 2025 at 2pm": the date as read holds its time.
        (time.start >= d.start && time.end <= d.end)),
  );
}

export function fillTyped(f: Filler, params: Param[]): void {
  const { mentions } = f;
  placeDates(
    f,
    params.filter((p) => isDateParam(p) && !f.has(p)),
  );
  for (const param of params.filter((p) => p.type === "string" && /version/.test(p.hint))) {
    if (f.has(param)) continue;
    const version = mentions.versions.find((v) => f.free(v));
    if (version) f.set(param, version.text, version, "version", "shape");
  }
  // Colours to the parameters named or described as one ("background: Background color, hex"): each to the
  // one whose own word comes right before it ("background #fafafa"), else in the schema's order.
  const colourParams = params.filter((p) => p.type === "string" && /colou?r/.test(p.hint));
  for (const color of mentions.colors) {
    const open = colourParams.filter((p) => !f.has(p));
    if (open.length === 0 || !f.free(color)) continue;
    const before = labelBefore(f.text, color.start);
    const after = /^\s*(?:as|for)\s+(?:the\s+)?([a-z]+)/i.exec(f.text.slice(color.end, color.end + 30))?.[1];
    const names = (word: string | undefined) => (p: Param) =>
      word !== undefined && namesWord(p, word.toLowerCase());
    const param = open.find(names(before)) ?? open.find(names(after)) ?? open[0];
    if (param) f.set(param, color.text, color, "colour", "shape");
  }
  // A month of a year to a parameter for one ("month", or described as YYYY-MM); its year is then no number.
  for (const param of params.filter(
    (p) =>
      p.type === "string" && !isDateParam(p) && (p.words.includes("month") || /yyyy-mm(?!-)/.test(p.hint)),
  )) {
    if (f.has(param)) continue;
    const month = mentions.months.find((m) => f.free(m));
    if (month) f.set(param, month.value, month, "month of a year", "shape");
  }
  // A date with a time of day is one value: an ISO date-time parameter, or a time parameter whose wall
  // time may carry a date ("2024-07-01 15:00").
  for (const param of params.filter(
    (p) =>
      p.type === "string" &&
      (p.schema.format === "date-time" ||
        /^(?:datetime|date_time|timestamp_iso)$/.test(p.name) ||
        /^time$|^(?:start|at)_time$/.test(p.name)),
  )) {
    if (f.has(param)) continue;
    const datetime = mentions.datetimes.find((d) => f.free(d));
    if (!datetime) continue;
    const rfc3339 =
      param.schema.format === "date-time"
        ? asRfc3339(datetime.text, f.text.slice(datetime.end, datetime.end + 8))
        : undefined;
    f.set(param, rfc3339 ?? datetime.text, datetime, "date and time", "shape");
  }
  for (const param of params.filter(
    (p) => p.type === "string" && /^(?:datetime|date_time)$/.test(p.name) && !isDateParam(p),
  )) {
    if (f.has(param)) continue;
    const date = mentions.dates.find((d) => f.free(d) && d.value !== "today");
    if (!date) continue;
    // "on June 2, 2025 at 17:30": the time of day written beside the date is part of a date-time.
    const time = mentions.times.find(
      (t) =>
        f.free(t) && ((t.start >= date.start && t.end <= date.end) || dateBeside(f, t)?.start === date.start),
    );
    const clock = time ? clock24(time.text) : undefined;
    if (time && clock) {
      const separator = /\biso\b|\d{2}t\d{2}|\bthh\b|ddthh/.test(param.hint) ? "T" : " ";
      const span = { start: Math.min(time.start, date.start), end: Math.max(time.end, date.end) };
      f.set(param, `${date.value}${separator}${clock}`, span, "date and time of day", "shape");
    } else f.set(param, date.value, date, "date", "shape");
  }
  for (const param of params.filter(
    (p) => p.type === "string" && /^time$|^(?:start|at)_time$/.test(p.name) && !takesTimeOfDay(p),
  )) {
    if (f.has(param)) continue;
    const time = mentions.times.find((t) => f.free(t));
    if (!time) continue;
    // A date written next to the time ("3pm on 2024-07-01") is part of it, when the parameter's
    // description shows it takes a date with its time; left out, the call would answer for today.
    const dated = /\d{4}-\d{2}-\d{2}[ t]\d/.test(param.hint) ? dateBeside(f, time) : undefined;
    const clock = dated ? clock24(time.text) : undefined;
    if (dated && clock) {
      const span = { start: Math.min(time.start, dated.start), end: Math.max(time.end, dated.end) };
      // Only the time and the date are taken: a place between them ("9am in Los Angeles on 2025-03-10")
      // is still there for a zone.
      // Written as the description's example writes it ("2024-07-01T09:30:00" or "2024-07-01 15:00").
      const separator = /\d{2}t\d{2}/.test(param.hint) ? "T" : " ";
      f.set(param, `${dated.value}${separator}${clock}`, span, "date and time of day", "shape", false);
      f.claim(time);
      f.claim(dated);
    } else {
      const written = /^\d/.test(time.text) && !wantsClock24(param) ? time.text : clock24(time.text);
      f.set(param, written ?? time.text, time, "time of day", "shape");
    }
  }
  for (const param of params.filter((p) => p.type === "string" && /cron/.test(p.hint))) {
    if (f.has(param)) continue;
    const cron = [...mentions.quoted, ...mentions.crons].find(
      (c) => f.free(c) && c.text.trim().split(/\s+/).length >= 5,
    );
    if (cron) f.set(param, cron.text.trim(), cron, "cron expression", "shape");
  }
  for (const param of params.filter(
    (p) => p.type === "string" && /expression|formula/.test(p.hint) && !/cron/.test(p.hint),
  )) {
    if (f.has(param)) continue;
    const expression = mentions.expressions
      .filter((e) => f.free(e))
      .sort((a, b) => b.text.length - a.text.length)[0];
    if (expression) f.set(param, expression.text.trim(), expression, "math expression", "shape");
    else {
      // A chain ("twelve times eight minus three") over one operation in words ("9 squared").
      const worded = [...findWordedChains(f.text), ...findWordedExpressions(f.text)].find((e) => f.free(e));
      if (worded) f.set(param, worded.value, worded, "arithmetic in words", "shape");
    }
  }
}

/** Words before a date that say it is where a range starts, or where it ends. */
export const STARTS = /\b(?:from|since|starting|start|between|after|begin(?:ning)?)\s*(?:on\s+)?$/i;
export const ENDS = /\b(?:to|until|till|through|and|end(?:ing)?|before|by)\s*(?:on\s+)?$/i;

/** Dates to date parameters, all at once: "from"/"since" to a start, "to"/"until" to an end, else in order. */
export function placeDates(f: Filler, params: Param[]): void {
  const dates = f.mentions.dates.filter((d) => f.free(d)).slice(0, MAX_ASSIGNED);
  const candidates: Candidate<(typeof dates)[number], Param>[] = [];
  const how = new Map<string, string>();
  for (const [i, d] of dates.entries()) {
    const before = f.text.slice(Math.max(0, d.start - 20), d.start);
    for (const [j, param] of params.entries()) {
      if (param.schema.pattern && !matchesPattern(param, inDescribedFormat(param.hint, d.value))) continue;
      // "today" is a value only where the schema says so; an optional date left out is today already.
      if (
        d.value === "today" &&
        !param.required &&
        !param.schema.pattern &&
        !/["'“‘]today["'”’]|\bor today\b/.test(param.hint)
      )
        continue;
      const isStart = param.words.some((w) => /^(?:start|from|since|begin)/.test(w));
      const isEnd = param.words.some((w) => /^(?:end|to|until|finish)/.test(w));
      let weight = CUE.order / (1 + Math.abs(i - j));
      let why = "date";
      if ((isStart && STARTS.test(before)) || (isEnd && ENDS.test(before))) {
        weight += CUE.ownWord;
        why = "date after a word that names it";
      }
      candidates.push({ mention: d, param, weight });
      how.set(`${i}:${j}`, why);
    }
  }
  for (const c of assignBest(dates, params, candidates))
    f.set(
      c.param,
      inDescribedFormat(c.param.hint, c.mention.value),
      c.mention,
      how.get(`${dates.indexOf(c.mention)}:${params.indexOf(c.param)}`) ?? "date",
      "shape",
    );
}

export const DATE_REFERENCE =
  /\b(?:my|our|their|his|her|your|the\s+\w+(?:'s)?)\s+(?:\w+\s+){0,2}?(?:date|birthday|anniversary|deadline)\b/i;

/**
 * A date the request points at but does not give ("30 business days after the contract start date") is
 * missing: a date parameter's default (today) would silently answer for another day.
 */
export function unplacedDates(f: Filler, params: Param[]): MissingField[] {
  const reference = DATE_REFERENCE.exec(f.text);
  if (!reference) return [];
  const param = params.find((p) => isDateParam(p) && !f.has(p));
  if (!param || f.mentions.dates.some((d) => f.free(d))) return [];
  return [
    {
      field: param.name,
      schema: param.schema,
      reason: `the request refers to "${reference[0]}" but gives no date`,
    },
  ];
}
