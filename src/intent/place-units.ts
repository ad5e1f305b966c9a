// "<n> <unit> to <unit>": a quantity and its source and target units.
import type { Filler, Param } from "./filler.ts";
/**
 * A unit: one word, after an optional qualifier ("US gallons", "square feet", "degrees celsius") and with an
 * optional "per <word>" ("miles per hour"). Bounded this way, the words around it ("to C please", "litres
 * are") stay out of it.
 */
export const UNIT =
  "((?:(?:degrees?|us|uk|imperial|imp|fluid|fl|nautical|light|square|sq|cubic|short|long|metric|astronomical|watt|kilowatt)\\s+)?°?\\s?[A-Za-z][A-Za-z/°²³]*(?:\\s+per\\s+[A-Za-z]+)?)";
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
  // "d": group offsets, so each value keeps the span it came from.
  const forward = new RegExp(`${NUMBER}\\s*${UNIT}\\s+(?:to|in|into|as)\\s+${UNIT}(?![\\w°])`, "id");
  const backward = new RegExp(
    `how many\\s+${UNIT}\\s+(?:(?:is|are|make|makes|equals?|=)\\s+)?(?:there\\s+)?(?:in\\s+)?(?:an?\\s+|the\\s+)?${NUMBER}\\s*${UNIT}(?![\\w°])`,
    "id",
  );
  const trailing = new RegExp(
    `${NUMBER}\\s*${UNIT}\\b[^\\d]*?\\b(?:to|in|into|as)\\s+${UNIT}\\s*[?.!]*\\s*$`,
    "id",
  );
  const place = (match: RegExpExecArray, numberGroup: number, fromGroup: number, toGroup: number) => {
    const at = (group: number) => {
      const [start, end] = match.indices?.[group] ?? [match.index, match.index];
      return { start, end, text: match[group] ?? "" };
    };
    const n = at(numberGroup);
    if (value) f.set(value, Number(n.text.replace(/,/g, "")), n, "number before a unit", "units");
    f.set(from, at(fromGroup).text.trim(), at(fromGroup), "unit after the number", "units");
    f.set(to, at(toGroup).text.trim(), at(toGroup), "unit after 'to'", "units");
  };
  // A quantity in two units ("3 feet 4 inches") is not one value in the second: nothing is placed.
  const compound = (match: RegExpExecArray, numberGroup: number) =>
    /\d\s*[A-Za-z"'′″]+\s*(?:and\s+)?$/.test(
      f.text.slice(
        Math.max(0, (match.indices?.[numberGroup]?.[0] ?? 0) - 40),
        match.indices?.[numberGroup]?.[0] ?? 0,
      ),
    );
  const b = backward.exec(f.text);
  // The target named at the end is looked for in a request of a sentence or two, not in pasted data.
  const a = b ? undefined : (forward.exec(f.text) ?? (f.text.length <= 1000 ? trailing.exec(f.text) : null));
  if (b && !compound(b, 2)) place(b, 2, 3, 1);
  else if (a && !compound(a, 1)) place(a, 1, 2, 3);
}
