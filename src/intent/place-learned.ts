// Values the tool's example calls phrased without writing them ("monthly" for 12).
import type { LearnedCues } from "./examples.ts";
import type { MissingField } from "./fill.ts";
import type { Filler, Param } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { enumHits } from "./place-enums.ts";
import { wordBefore } from "./recognisers/span.ts";
import { enumValues, escapeRegExp } from "./schema-cues.ts";

const direction = (word: string): "from" | "to" | undefined =>
  /^(?:from|source)$/.test(word) ? "from" : /^(?:to|into|target)$/.test(word) ? "to" : undefined;

/** A parameter's direction by its name's words (from_base, to_bases, source_unit, target_unit), if any. */
function directionOf(param: Param): "from" | "to" | undefined {
  return param.words.map(direction).find((d) => d !== undefined);
}

/**
 * "those octal perms in binary": of two values for a target, one named before the other, not joined to it,
 * where only the later one follows "in", "to" or "into", the earlier is the source ("octal"); it goes to
 * the source parameter and leaves the target's list.
 */
function sourceBeforeTarget(
  f: Filler,
  param: Param,
  params: Param[],
  hits: { value: unknown; span: Span }[],
  lower: string,
): void {
  if (directionOf(param) !== "to" || hits.length !== 2) return;
  const [earlier, later] = hits as [{ value: unknown; span: Span }, { value: unknown; span: Span }];
  const marked = (h: { span: Span }) => /^(?:in|to|into)$/.test(wordBefore(lower, h.span.start));
  if (marked(earlier) || !marked(later)) return;
  if (/^[\s,]*(?:and|or|,)/.test(lower.slice(earlier.span.end, later.span.start))) return;
  const source = params.find(
    (p) => p !== param && !f.has(p) && directionOf(p) === "from" && p.type !== "array",
  );
  if (!source || typeof earlier.value !== "number" || !["integer", "number"].includes(source.type)) return;
  f.set(source, earlier.value, earlier.span, "phrase from the examples, before the target's", "learned");
  hits.splice(0, 1);
}

/** Phrases the tool's examples used for a value they did not write ("monthly" for 12, "binary" for 2). */
export function fillPhrases(f: Filler, params: Param[], learned: LearnedCues): void {
  const lower = f.text.toLowerCase();
  for (const param of params) {
    if (f.has(param)) continue;
    const hits: { value: unknown; span: Span }[] = [];
    for (const { phrase, value } of learned.phrases.filter((p) => p.param === param.name)) {
      const at = new RegExp(`\\b${escapeRegExp(phrase)}\\b`).exec(lower);
      if (!at || hits.some((h) => JSON.stringify(h.value) === JSON.stringify(value))) continue;
      const span = { start: at.index, end: at.index + phrase.length };
      // "from binary" is no target base: the phrase goes to the parameter of the direction it is written in.
      const before = wordBefore(lower, at.index);
      if (direction(before) && direction(before) !== directionOf(param)) {
        const counterpart = params.find(
          (p) => p !== param && !f.has(p) && directionOf(p) === direction(before) && p.type !== "array",
        );
        if (counterpart && typeof value === "number" && ["integer", "number"].includes(counterpart.type))
          f.set(counterpart, value, span, `phrase from the examples, after "${before}"`, "learned");
        continue;
      }
      hits.push({ value, span });
    }
    if (hits.length === 0) continue;
    hits.sort((a, b) => a.span.start - b.span.start);
    sourceBeforeTarget(f, param, params, hits, lower);
    const [first] = hits;
    if (!first) continue;
    // A list takes every value named; a single value only an unambiguous one.
    if (param.type === "array")
      f.set(
        param,
        hits.map((h) => h.value),
        first.span,
        "phrase from the examples",
        "learned",
      );
    else if (hits.length === 1) f.set(param, first.value, first.span, "phrase from the examples", "learned");
  }
}

/**
 * An enum value the request names only by a word the tool's examples consistently use for it
 * (`valueWords`): taken when the request's words point at that one value and no other.
 */
export function fillValueWords(f: Filler, params: Param[], learned: LearnedCues): void {
  const lower = f.text.toLowerCase();
  const inQuotes = (at: number) => f.mentions.quoted.some((q) => at >= q.start && at < q.end);
  for (const param of params) {
    // A request that names a value by its own words (or several, ambiguously) is read by those words.
    if (f.has(param) || enumHits(f, param, f.mentions.quoted).length > 0) continue;
    const hits: { value: string; span: Span }[] = [];
    // Only a value of the parameter's enum: a free-text value is what the request says, not the examples'.
    const allowed = new Set(enumValues(param));
    for (const { word, value } of learned.valueWords.filter(
      (w) => w.param === param.name && allowed.has(w.value),
    )) {
      const at = [...lower.matchAll(new RegExp(`\\b${escapeRegExp(word)}\\b`, "g"))].find(
        (m) => !inQuotes(m.index),
      );
      if (at) hits.push({ value, span: { start: at.index, end: at.index + word.length } });
    }
    const [first] = hits;
    if (!first || new Set(hits.map((h) => h.value)).size !== 1) continue;
    const value = param.type === "array" ? [first.value] : first.value;
    f.set(param, value, first.span, "word the examples use for the value", "learned", false);
  }
}

/** Words from which an example's phrasing is word for word the tool's own, not a keyword that grazes. */
const PHRASE_WORDS = 3;

/**
 * Enum values the request names by words the tool's own examples use for another value ("45 as a
 * percentage of 180" names percent_of, but the examples phrase that as what_percent). The examples' value
 * replaces it when their phrase is repeated word for word (several words); otherwise the two readings
 * disagree and the value is taken back and asked for.
 */
export function contestedEnums(f: Filler, params: Param[], learned: LearnedCues): MissingField[] {
  const lower = f.text.toLowerCase();
  const inQuotes = (at: number) => f.mentions.quoted.some((q) => at >= q.start && at < q.end);
  return params.flatMap((param) => {
    const placed = f.filled.find((v) => v.field === param.name && v.evidence === "enum");
    if (!placed) return [];
    const at = (phrase: string) =>
      [...lower.matchAll(new RegExp(`\\b${phrase.split(" ").map(escapeRegExp).join("\\s+")}\\b`, "g"))].find(
        (m) => !inQuotes(m.index),
      );
    const others = learned.stringPhrases.filter(
      (p) => p.param === param.name && p.value !== placed.value && at(p.phrase),
    );
    const [other] = others;
    // A word the examples use only for another value ("went" of "price went from 80 to 100" for a change)
    // disagrees too ("our MRR went from 18,400 to 21,160. By what percent did it grow"): asked for.
    const word = learned.valueWords.find(
      (v) =>
        v.param === param.name &&
        v.value !== placed.value &&
        at(v.word) &&
        !String(placed.value)
          .split(/[_\s-]+/)
          .includes(v.word),
    );
    if (!other && word) {
      delete f.args[param.name];
      f.filled.splice(f.filled.indexOf(placed), 1);
      return [
        {
          field: param.name,
          schema: param.schema,
          reason: `the request names ${JSON.stringify(placed.value)}, but "${word.word}" is a word the tool's examples use for ${JSON.stringify(word.value)}`,
        },
      ];
    }
    if (!other) return [];
    delete f.args[param.name];
    f.filled.splice(f.filled.indexOf(placed), 1);
    const match = at(other.phrase);
    const distinct = new Set(others.map((p) => p.value));
    if (match && distinct.size === 1 && other.phrase.split(" ").length >= PHRASE_WORDS) {
      const span = { start: match.index, end: match.index + match[0].length };
      f.set(param, other.value, span, "phrase from the examples, word for word", "learned", false);
      return [];
    }
    return [
      {
        field: param.name,
        schema: param.schema,
        reason: `the request names ${JSON.stringify(placed.value)}, but "${other.phrase}" is how the tool's examples ask for ${JSON.stringify(other.value)}`,
      },
    ];
  });
}
