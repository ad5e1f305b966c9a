// Typed values named in a request, each with the span it came from: quoted strings, dates, times, versions,
// colours, numbers with their units or cues, math expressions and cron expressions. Argument filling
// (fill.ts) matches them to a schema's parameters; nothing here knows about any one tool.
import { findOpaqueValues, type OpaqueValue, type Span } from "./opaque.ts";
import { findZones, type ZoneMention } from "./timezones.ts";

export interface Mention extends Span {
  text: string;
}

export interface NumberMention extends Mention {
  value: number;
  /** The word right after the number ("years", "people", "percent"), lower case. */
  next: string;
  /** The word right before it ("from", "to", "by"), lower case. */
  previous: string;
  percent: boolean;
  money: boolean;
}

export interface Mentions {
  text: string;
  opaque: OpaqueValue[];
  zones: ZoneMention[];
  quoted: Mention[];
  dates: Mention[];
  /** A date with a time of day ("2024-01-15 14:00", "2021-01-01T00:00:00Z"): one value, not a date and a time. */
  datetimes: Mention[];
  times: Mention[];
  versions: Mention[];
  colors: Mention[];
  numbers: NumberMention[];
  expressions: Mention[];
  crons: Mention[];
  /** Words that are data, not English: identifiers ("myVariableName", "user_id") and %XX-escaped text. */
  tokens: Mention[];
  /** The text after a colon that ends the instruction ("count the words in: …"). */
  trailing?: Mention;
}

/** Every match; `group` -1 takes the first capture group that matched (alternatives). */
function all(text: string, pattern: RegExp, group = 0): Mention[] {
  const out: Mention[] = [];
  for (const match of text.matchAll(pattern)) {
    const value = group === -1 ? match.slice(1).find((g) => g !== undefined) : match[group];
    if (value === undefined) continue;
    const start = match.index + match[0].indexOf(value);
    out.push({ text: value, start, end: start + value.length });
  }
  return out;
}

const CURRENCY = /^(?:usd|eur|gbp|jpy|chf|cad|aud|dollars?|euros?|pounds? sterling|bucks|quid)$/;

function numbers(text: string): NumberMention[] {
  const out: NumberMention[] = [];
  const pattern = /(?<![\w.#])([$€£])?(-?\d+(?:,\d{3})*(?:\.\d+)?)(k|m|bn)?\b(\s*%)?/gi;
  for (const match of text.matchAll(pattern)) {
    const [whole, symbol, digits = "", scale, percentSign] = match;
    let value = Number(digits.replace(/,/g, ""));
    const factor = { k: 1e3, m: 1e6, bn: 1e9 }[scale?.toLowerCase() ?? ""];
    if (factor) value *= factor;
    const end = match.index + whole.length;
    const next = /^\s*([a-zA-Z]+)/.exec(text.slice(end))?.[1]?.toLowerCase() ?? "";
    const previous = wordBefore(text, match.index);
    out.push({
      text: whole,
      start: match.index,
      end,
      value,
      next,
      previous,
      percent: Boolean(percentSign) || next === "percent" || next === "pct",
      money: Boolean(symbol) || CURRENCY.test(next),
    });
  }
  return out;
}

/**
 * The word that ends just before `end` (only whitespace between), lowercased, or "". Scanned backwards by
 * hand: the regex /([a-zA-Z]+)\s*$/ on the text before each number retried every start in a run of letters,
 * so 2,000 letters, "!" and 400 numbers cost minutes of blocked event loop.
 */
function wordBefore(text: string, end: number): string {
  let stop = end;
  while (stop > 0 && /\s/.test(text[stop - 1] as string)) stop--;
  let start = stop;
  while (start > 0 && /[a-zA-Z]/.test(text[start - 1] as string)) start--;
  return text.slice(start, stop).toLowerCase();
}

function within(spans: Span[]): (m: Span) => boolean {
  return (m) => spans.some((s) => m.start >= s.start && m.end <= s.end);
}

export function findMentions(text: string): Mentions {
  const colon = /:\s+(\S[\s\S]*)$/.exec(text);
  const datetimes = all(
    text,
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)\b/g,
  );
  const dates = all(text, /\b(\d{4}-\d{2}-\d{2})\b|\b(today)\b/gi, -1);
  const times = all(text, /\b(\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2})\b/gi, 1).filter(
    (t) => !within(datetimes)(t),
  );
  const versions = all(
    text,
    /(?<![\w.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?(?:\+[0-9A-Za-z.-]+)?(?![\w.])/g,
  );
  const colors = all(text, /#[0-9a-fA-F]{3,8}\b|\b(?:rgb|hsl)a?\([^)]*\)/g);
  const quoted = all(text, /"([^"]+)"|(?<![\w])'([^']+)'(?![\w])|“([^”]+)”/g, -1);
  // The digits of a date, a time, a version, a colour or a quoted text are not quantities ("2021" in
  // 2021-01-01T00:00Z, "10" in "10 Tips for Better Sleep").
  const partOfValue = within([...datetimes, ...dates, ...times, ...versions, ...colors, ...quoted]);
  return {
    text,
    opaque: findOpaqueValues(text),
    zones: findZones(text),
    quoted,
    dates,
    datetimes: datetimes.filter((d) => /\d:\d/.test(d.text)),
    times,
    versions,
    colors,
    numbers: numbers(text).filter((n) => !partOfValue(n)),
    expressions: all(text, /[-(]?[\d.(][\d\s.+\-*/^()%!]*[\d)!]/g).filter(
      (m) =>
        /\d\s*[-+*/^]\s*[\d(]|\)\s*[-+*/^]|\d!/.test(m.text) && !/^\d{4}-\d{2}-\d{2}$/.test(m.text.trim()),
    ),
    tokens: all(
      text,
      /(?<![\w%])(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w%])|(?<!\S)\S*%[0-9A-Fa-f]{2}\S*/g,
    ).filter((t) => !partOfValue(t)),
    crons: all(text, /(?<!\S)((?:[\d*][\d*/,-]*\s+){4}[\d*][\d*/,A-Za-z-]*)(?!\S)/g, 1),
    ...(colon?.[1]
      ? { trailing: { text: colon[1], start: colon.index + colon[0].indexOf(colon[1]), end: text.length } }
      : {}),
  };
}
