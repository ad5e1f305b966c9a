// A request that names several values for a single-valued parameter ("the weather in Paris and London",
// "circles of radius 5, 10 and 15") asks for one call per value. The filler reports such a field with each
// value and its span; the request is then answered as one part per value, each part the request with the
// list written as that one value, so each call is filled, gated and accounted for like any part of a split.
import type { MissingField } from "../../intent/index.ts";

type Several = NonNullable<MissingField["several"]>;

/** "…, respectively": the word that pairs two lists item by item, which no single part needs. */
const RESPECTIVELY = /\s*,?\s*\brespectively\b/gi;

/**
 * Between two values of one list, only a joiner, after the unit or noun both share ("20 minutes and 15
 * minutes"): values far apart ("a depth of 5 and a state of 1, another with a depth of 10") are told in
 * clauses that differ in more than the value, which one list written as one value would garble.
 */
const JOINED = /^(?:\s*[^\s,]+)?\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or|&)\s+)$/iu;

function adjacent(query: string, list: Several): boolean {
  return list.every(
    (value, i) => i === 0 || JOINED.test(query.slice((list[i - 1] as Several[number]).end, value.start)),
  );
}

/**
 * The request once per value: every field with several values has the same number of them (one list, or
 * lists paired item by item), at most `most`; otherwise undefined. Lists that overlap are no such request.
 */
export function onePerValue(query: string, missing: MissingField[], most: number): string[] | undefined {
  const lists = missing.flatMap((m) => (m.several && m.several.length > 1 ? [m.several] : []));
  const count = lists[0]?.length ?? 0;
  if (count < 2 || count > most || lists.some((list) => list.length !== count)) return undefined;
  const spans = lists
    .map((list) => ({
      list,
      start: (list[0] as Several[number]).start,
      end: (list.at(-1) as Several[number]).end,
    }))
    .sort((a, b) => a.start - b.start);
  if (spans.some((span, i) => i > 0 && span.start < (spans[i - 1]?.end ?? 0))) return undefined;
  if (!lists.every((list) => adjacent(query, list))) return undefined;
  return Array.from({ length: count }, (_, i) => {
    let text = query;
    for (const span of [...spans].reverse())
      text = `${text.slice(0, span.start)}${span.list[i]?.text ?? ""}${text.slice(span.end)}`;
    return text.replace(RESPECTIVELY, "");
  });
}
