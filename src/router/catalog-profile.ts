// What the tool names alone say about a catalog nobody calibrated, for the fusion weight.
//
// The generic calibration is fitted on MetaTool, whose tools have one-off names ("WeatherTool") and whose
// queries paraphrase them: there the dense half carries the ranking. API catalogs are built the other way,
// from a shared vocabulary of operations and resources (`deleteProjectIssue`, `deleteProjectIssueComment`,
// `updateProjectIssue`, `deleteAccountIssue`): tools differ by a single word, which a sentence embedding
// blurs and BM25 does not. Without labels, the share of tools whose name is one word away from another
// tool's tells the two kinds apart (near 0 for one-off names, near 1 for an API catalog; docs/performance.md
// has the shares), and moves the generic weight towards lexical by that share.
import type { Tool } from "../catalog/index.ts";
import type { Calibration } from "./calibration.ts";
import { nameWords, terms } from "./text.ts";

/**
 * The lexical weight for a catalog whose every tool is named from a shared vocabulary: names that differ
 * by one word need BM25's exactness, but a little of the dense half still helps with paraphrased queries,
 * so the weight stops short of 1. Chosen on the API-style stand-ins in test/router/fixtures (hit@1 by
 * weight in docs/performance.md).
 */
const COMBINATORIAL_WEIGHT = 0.8;

/** Names this short ("WeatherTool") share a word by chance rather than by construction. */
const MIN_NAME_TERMS = 3;

/**
 * Share of tools whose name has at least three terms and differs from another tool's name by exactly one
 * term (order ignored): `listProjectIssues` next to `listAccountIssues` or `countProjectIssues`.
 */
export function combinatorialNaming(tools: readonly Tool[]): number {
  if (tools.length === 0) return 0;
  // Each name's leave-one-term-out keys, and the distinct names that produce each key: two names one term
  // apart share a key. Linear in the catalog, so it costs little at 100k tools.
  const namesByKey = new Map<string, Set<string>>();
  const keysOf: string[][] = [];
  for (const tool of tools) {
    const set = [...new Set(terms(nameWords(tool.name).join(" ")))].sort();
    const keys: string[] = [];
    if (set.length >= MIN_NAME_TERMS) {
      const full = set.join(" ");
      for (let skip = 0; skip < set.length; skip++) {
        const key = set.filter((_, i) => i !== skip).join(" ");
        keys.push(key);
        let names = namesByKey.get(key);
        if (!names) {
          names = new Set();
          namesByKey.set(key, names);
        }
        names.add(full);
      }
    }
    keysOf.push(keys);
  }
  let combinatorial = 0;
  for (const keys of keysOf) if (keys.some((key) => (namesByKey.get(key)?.size ?? 0) > 1)) combinatorial++;
  return combinatorial / tools.length;
}

/** The generic calibration with its lexical weight moved towards COMBINATORIAL_WEIGHT by the catalog's naming. */
export function forCatalog(generic: Calibration, tools: readonly Tool[]): Calibration {
  const share = combinatorialNaming(tools);
  if (share === 0 || generic.lexicalWeight >= COMBINATORIAL_WEIGHT) return generic;
  const lexicalWeight = generic.lexicalWeight + (COMBINATORIAL_WEIGHT - generic.lexicalWeight) * share;
  return {
    ...generic,
    lexicalWeight: Math.round(lexicalWeight * 1000) / 1000,
    source: `${generic.source}; lexical weight ${generic.lexicalWeight} -> ${lexicalWeight.toFixed(3)}: ${Math.round(share * 100)}% of the tools are named one word away from another`,
  };
}
