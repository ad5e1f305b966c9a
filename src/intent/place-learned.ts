// Values the tool's example calls phrased without writing them ("monthly" for 12).
import type { LearnedCues } from "./examples.ts";
import type { Filler, Param } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { escapeRegExp } from "./schema-cues.ts";
/** Phrases the tool's examples used for a value they did not write ("monthly" for 12, "binary" for 2). */
export function fillPhrases(f: Filler, params: Param[], learned: LearnedCues): void {
  const lower = f.text.toLowerCase();
  for (const param of params) {
    if (f.has(param)) continue;
    const hits: { value: unknown; span: Span }[] = [];
    for (const { phrase, value } of learned.phrases.filter((p) => p.param === param.name)) {
      const at = new RegExp(`\\b${escapeRegExp(phrase)}\\b`).exec(lower);
      if (at && !hits.some((h) => JSON.stringify(h.value) === JSON.stringify(value)))
        hits.push({ value, span: { start: at.index, end: at.index + phrase.length } });
    }
    if (hits.length === 0) continue;
    hits.sort((a, b) => a.span.start - b.span.start);
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
