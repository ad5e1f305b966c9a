// The values a request states that a call leaves unused. A call that reads "31" and "days" from "convert
// 31 days to hours" but has no place for "hours", or takes 'switch' from "md5 of 'switch' then url encode
// 'a b'" and drops 'a b', answers something other than what was asked, however sure each value it placed
// is. Such a call carries the `unused_value` signal, a row of the confidence table like any evidence.
import type { Filler, JsonSchema } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { NUMBER, UNIT } from "./place-units.ts";
import type { Mention } from "./recognisers/span.ts";

const DETERMINER = /^(?:a|an|the|my|your|his|her|its|our|their|this|that|these|those|it|me|us|them)$/i;

/** The target unit of "<n> <unit> to <unit>" or "how many <unit> in <n> <unit>": a value the request states. */
function targetUnits(text: string): Mention[] {
  const forward = new RegExp(`${NUMBER}\\s*${UNIT}\\s+(?:to|into)\\s+${UNIT}(?![\\w°])`, "d");
  const backward = new RegExp(`how many\\s+${UNIT}\\s+(?:are\\s+|is\\s+)?(?:there\\s+)?in\\s+`, "d");
  const found: Mention[] = [];
  for (const [match, group] of [
    [forward.exec(text), 3],
    [backward.exec(text), 1],
  ] as const) {
    const at = match?.indices?.[group];
    // "1000000000000 ms to a date": a determiner is no unit.
    if (match && at && !DETERMINER.test(match[group] ?? ""))
      found.push({ text: match[group] ?? "", start: at[0], end: at[1] });
  }
  return found;
}

/** The property names of an output schema, nested ones too, in lower case. */
export function outputNames(schema: JsonSchema | undefined, depth = 0): Set<string> {
  const names = new Set<string>();
  const properties = schema?.properties;
  if (depth > 3 || !properties || typeof properties !== "object") return names;
  for (const [name, child] of Object.entries(properties as Record<string, JsonSchema>)) {
    names.add(name.toLowerCase());
    for (const inner of outputNames(child, depth + 1)) names.add(inner);
  }
  return names;
}

/** Whether a target unit names what the tool answers ("how many words", "to rgb" for a tool returning them). */
function answered(target: Mention, names: Set<string>): boolean {
  const word = target.text.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  return names.has(word) || (word.endsWith("s") && names.has(word.slice(0, -1))) || names.has(`${word}s`);
}

/** Where the text's sentences end: after ".", "?" or "!" before a space, and at blank lines. */
function sentenceEnds(text: string): number[] {
  return [...text.matchAll(/[.?!](?=\s)|\n\s*\n/g)].map((end) => end.index + end[0].length);
}

/** A value as written, for telling a repeat: lower case, without quotes, a plural "s" or a sign. */
function valueText(text: string): string {
  return text
    .toLowerCase()
    .replace(/^["'“`]+|["'”`]+$/g, "")
    .replace(/(?<=\d)s$/, "")
    .trim();
}

/**
 * The stated values outside every span the call placed a value from: numbers (but a lone "one", which is
 * as often a pronoun as a quantity), quoted text, dates, times, versions, colours, opaque values, a zone
 * named as a clock and a conversion's target unit the tool's output does not name.
 */
export function unusedValues(f: Filler, output?: JsonSchema): Mention[] {
  const placed: Span[] = f.filled.flatMap((v) => (v.source === "query" && v.span ? [v.span] : []));
  // A call that read nothing from the request (the agent sent everything) leaves the text to the agent.
  if (placed.length === 0) return [];
  const m = f.mentions;
  const stated: Mention[] = [
    ...m.numbers.filter((n) => !(n.words && n.value === 1)),
    ...m.quoted,
    ...m.dates,
    ...m.datetimes,
    ...m.times,
    ...m.versions,
    ...m.colors,
    ...m.opaque.map((o) => ({ text: o.value, start: o.start, end: o.end })),
    // A zone named as a clock ("in Chicago time", "Lisbon local time") asks for a time in it.
    // UTC is the clock answers come in ("what UTC time is epoch …"), not a zone to convert to.
    ...m.zones
      .filter(
        (z) =>
          /^\s+(?:local\s+)?time\b/i.test(f.text.slice(z.end, z.end + 12)) &&
          !/^(?:etc\/)?(?:utc|gmt|z|zulu)$/i.test(z.zone),
      )
      .map((z) => ({ text: f.text.slice(z.start, z.end), start: z.start, end: z.end })),
    // A target the tool's output names is what the call answers, not a value it leaves out.
    ...targetUnits(f.text).filter((t) => !answered(t, outputNames(output))),
  ];
  const covered = (s: Span) => placed.some((p) => s.start < p.end && s.end > p.start);
  // The same value stated again ("a bunch of 429s. What does 429 mean") is the one the call took.
  const taken = new Set(placed.map((p) => valueText(f.text.slice(p.start, p.end))));
  // A number in words that counts a list the call took is that list's size ("the last six runs: 4, 8, …").
  const sizes = new Set(f.filled.flatMap((v) => (Array.isArray(v.value) ? [v.value.length] : [])));
  const counted = (s: Mention) => m.numbers.some((n) => n.words && n.start === s.start && sizes.has(n.value));
  // A value in a sentence before the first one the call reads is context ("Debugging a 401. Here's the
  // token, what's in it?"); one after may correct it ("Book 3 tickets. No, 4"), so it counts.
  const firstRead = Math.min(...placed.map((p) => p.start));
  const contextEnd = Math.max(0, ...sentenceEnds(f.text).filter((end) => end <= firstRead));
  const inContext = (at: Span) => at.start < contextEnd;
  // A span taken from every parameter (a label before the request, a value the agent sent) is not stated.
  return stated.filter(
    (s) => !covered(s) && f.free(s) && !taken.has(valueText(s.text)) && !counted(s) && !inContext(s),
  );
}
