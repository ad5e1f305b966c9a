// "<n> <unit> to <unit>": a quantity and its source and target units.
import { currencyCode, takesCurrencyCode } from "./currencies.ts";
import { enumUnitFor, namesUnit, sameKindUnit } from "./described-units.ts";
import type { Filler, Param } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { enumValues } from "./schema-cues.ts";
/**
 * A unit: one word, after an optional qualifier ("US gallons", "square feet", "degrees celsius") and with an
 * optional "per <word>" ("miles per hour"). Bounded this way, the words around it ("to C please", "litres
 * are") stay out of it.
 */
export const UNIT =
  "((?:(?:degrees?|deg|us|uk|imperial|imp|fluid|fl|nautical|light|square|sq|cubic|short|long|metric|astronomical|watt|kilowatt)\\s+)?°?\\s?(?!(?:and|or|a|an|the|of)\\b)[A-Za-z][A-Za-z/°²³]*(?:\\s+per\\s+[A-Za-z]+)?)";
// Starts only where a number starts, so a long run of digits is not rescanned from each of them.
export const NUMBER = "(?<![\\d,.])(-?\\d[\\d,]*(?:\\.\\d+)?)";

/**
 * "<number> <unit> to <unit>", "how many <unit> is <number> <unit>", and "<number> <unit> …, … in <unit>?"
 * (the target named at the end) for string from/to parameters.
 */
export function fillUnits(f: Filler, params: Param[]): void {
  // The source and target of a conversion are named "from"/"source" and "to"/"target".
  const from = params.find(
    (p) => p.type === "string" && !f.has(p) && p.words.some((w) => w === "from" || w === "source"),
  );
  const to = params.find(
    (p) => p.type === "string" && !f.has(p) && p.words.some((w) => w === "to" || w === "target"),
  );
  const value = params.find((p) => (p.type === "number" || p.type === "integer") && p.required && !f.has(p));
  if (!from || !to) return;
  // A unit written as a currency's name goes to a parameter that takes codes as its code ("euros": EUR).
  // The unit's code and span: a two-word name ("Canadian dollars") takes the word after it too.
  const unitFor = (param: Param, unit: Span & { text: string }): { value: string; span: Span } => {
    const text = unit.text.trim();
    // A unit parameter with an enum takes its value for the unit written ("milliliters": "ml").
    const values = enumValues(param);
    if (values.length > 0 && !values.some((v) => String(v).toLowerCase() === text.toLowerCase()))
      return { value: enumUnitFor(text, values) ?? text, span: unit };
    if (!takesCurrencyCode(param.hint, param.schema.pattern)) return { value: text, span: unit };
    const next = /^\s+([A-Za-z]+)/.exec(f.text.slice(unit.end, unit.end + 30));
    const longer = next ? currencyCode(`${text} ${next[1]}`) : undefined;
    if (longer && next) return { value: longer, span: { start: unit.start, end: unit.end + next[0].length } };
    return { value: currencyCode(text) ?? text, span: unit };
  };
  const place = (n: number, at: Span, source: Span & { text: string }, target: Span & { text: string }) => {
    if (value) f.set(value, n, at, "number before a unit", "units");
    const [a, b] = [unitFor(from, source), unitFor(to, target)];
    f.set(from, a.value, a.span, "unit after the number", "units");
    f.set(to, b.value, b.span, "unit after 'to'", "units");
  };
  // "d": group offsets, so each value keeps the span it came from.
  const forward = new RegExp(`${NUMBER}\\s*${UNIT}\\s+(?:to|in|into|as)\\s+${UNIT}(?![\\w°])`, "id");
  const backward = new RegExp(
    `how many\\s+${UNIT}\\s+(?:(?:is|are|make|makes|equals?|=)\\s+)?(?:there\\s+)?(?:in\\s+)?(?:an?\\s+|the\\s+)?${NUMBER}\\s*${UNIT}(?![\\w°])`,
    "id",
  );
  // A courtesy or a "for whom" may follow the target ("in fahrenheit for my friend", "in km please").
  const trailing = new RegExp(
    `${NUMBER}\\s*${UNIT}\\b[^\\d]*?\\b(?:to|in|into|as)\\s+${UNIT}(?:\\s*,?\\s+(?:for|please|pls|thanks)\\b[^\\d?.!]{0,40})?\\s*[?.!]*\\s*$`,
    "id",
  );
  // "the tank is 5 US gallons. how many litres is that?": the quantity first, the target asked after.
  const askedAfter = new RegExp(
    `${NUMBER}\\s*${UNIT}\\b[^\\d]{0,80}?\\bhow many\\s+${UNIT}\\s+(?:is|are|would|will|does|do)\\s+(?:that|this|it|those|these)\\b`,
    "id",
  );
  /** The conversion `text` states: which pattern matched, and its number, source and target groups. */
  const conversion = (text: string) => {
    const b = backward.exec(text);
    if (b) return { match: b, groups: [2, 3, 1] as const };
    const after = askedAfter.exec(text);
    if (after) return { match: after, groups: [1, 2, 3] as const };
    // The target named at the end is looked for in a request of a sentence or two, not in pasted data.
    const a = forward.exec(text) ?? (text.length <= 1000 ? trailing.exec(text) : null);
    return a ? { match: a, groups: [1, 2, 3] as const } : undefined;
  };
  // A quantity in two units ("3 feet 4 inches") is not one value in the second: nothing is placed.
  const compound = (text: string, at: number) =>
    /\d\s*[A-Za-z"'′″]+\s*(?:and\s+)?$/.test(text.slice(Math.max(0, at - 40), at));
  const found = conversion(f.text);
  if (found) {
    const { match, groups } = found;
    const [numberGroup, fromGroup, toGroup] = groups;
    if (compound(f.text, match.indices?.[numberGroup]?.[0] ?? 0)) return;
    const at = (group: number) => {
      const [start, end] = match.indices?.[group] ?? [match.index, match.index];
      return { start, end, text: match[group] ?? "" };
    };
    const n = at(numberGroup);
    place(Number(n.text.replace(/,/g, "")), n, at(fromGroup), at(toGroup));
    return;
  }
  // A number written in words ("two and a half hours", "2 and a half cups"): the same patterns, read with
  // its digits in its place, and each span mapped back to the words.
  for (const worded of f.mentions.numbers.filter((m) => (m.words || /\s/.test(m.text)) && f.free(m))) {
    const digits = String(worded.value);
    const text = f.text.slice(0, worded.start) + digits + f.text.slice(worded.end);
    const hit = conversion(text);
    const [numberGroup, fromGroup, toGroup] = hit?.groups ?? [];
    const number = hit && numberGroup !== undefined ? hit.match.indices?.[numberGroup] : undefined;
    if (!hit || !number || number[0] !== worded.start || fromGroup === undefined || toGroup === undefined)
      continue;
    const shift = worded.end - worded.start - digits.length;
    const back = (group: number) => {
      const [start, end] = hit.match.indices?.[group] ?? [0, 0];
      const moved = start >= worded.start + digits.length ? shift : 0;
      return { start: start + moved, end: end + moved, text: hit.match[group] ?? "" };
    };
    place(worded.value, worded, back(fromGroup), back(toGroup));
    return;
  }
  const apart = separatedConversion(f.text);
  if (apart) place(apart.value, apart.number, apart.source, apart.target);
}

type Written = Span & { text: string };

/**
 * A quantity and the one other unit of its kind the request names apart from it ("tyres at 2.4 bar … the
 * gauge is in psi. what do i set it to", "12 km/h … the plan is all in mph, what speed is that?", "4 TB …
 * How many TiB should it show?"): the patterns above want the two units side by side. js-quantities says
 * which units are of one kind; with two such quantities, or two such targets, nothing is read.
 */
function separatedConversion(
  text: string,
): { value: number; number: Written; source: Written; target: Written } | undefined {
  if (text.length > 1000) return undefined;
  const groupSpan = (m: RegExpExecArray, group: number): Written => {
    const [start, end] = m.indices?.[group] ?? [m.index, m.index];
    return { start, end, text: m[group] ?? "" };
  };
  const quantities = [...text.matchAll(new RegExp(`${NUMBER}\\s*${UNIT}(?![\\w°])`, "dgi"))]
    .map((m) => ({ number: groupSpan(m, 1), source: groupSpan(m, 2) }))
    .filter((q) => namesUnit(q.source.text.trim()));
  const targets = [
    ...text.matchAll(new RegExp(`\\b(?:in|into|to|how many)\\s+${UNIT}(?![\\w°])`, "dgi")),
  ].map((m) => groupSpan(m, 1));
  const pairs = quantities.flatMap((q) =>
    targets
      .filter((t) => t.start >= q.source.end || t.end <= q.number.start)
      .filter((t) => t.text.trim().toLowerCase() !== q.source.text.trim().toLowerCase())
      .filter((t) => sameKindUnit(q.source.text.trim(), t.text.trim()))
      .map((t) => ({ ...q, target: t })),
  );
  const units = new Set(pairs.map((p) => p.target.text.trim().toLowerCase()));
  const pair = pairs[0];
  if (!pair || units.size !== 1 || new Set(pairs.map((p) => p.number.start)).size !== 1) return undefined;
  return { value: Number(pair.number.text.replace(/,/g, "")), ...pair };
}
