// Candidate gathering, the hot part of every route: the dense neighbours grouped by tool, BM25 over the same
// tools, the tools only BM25 found (with their exact dense score), and the pull of the no-tool class. Fusion
// and the threshold (router.ts) only see what this returns.
import type { DenseIndex } from "./dense.ts";
import type { LexicalIndex } from "./lexical.ts";
import type { Entry } from "./persist.ts";
import { dot } from "./tiers.ts";

/**
 * Dense entries fetched per query, before grouping by tool. 32 gave the same MetaTool (with examples),
 * bundled-catalog and API-catalog figures as 64, and lets the HNSW search run at ef 32 (see dense.ts).
 */
const DENSE_FETCH = 32;
/** Lexical-only tools that join the candidates. */
const LEXICAL_FETCH = 32;

export interface Candidates {
  /** Best dense similarity per candidate tool. */
  dense: Map<string, number>;
  /** Normalised BM25 per candidate tool that shares a term with the query. */
  lexical: Map<string, number>;
  /** Best similarity to a no-tool example. */
  reject: number;
}

/** What the router holds that candidate gathering reads. */
export interface CandidateSources {
  readonly entries: ReadonlyMap<number, Entry>;
  readonly dense: DenseIndex;
  readonly lexical: LexicalIndex;
  readonly categoryOf: ReadonlyMap<string, string>;
  readonly vectors: ReadonlyMap<number, Float32Array>;
  readonly rejectLabels: readonly number[];
  labelsOf(tool: string): readonly number[];
}

export interface CandidateScope {
  /** Only tools of these categories. */
  allowed?: Set<string>;
  /** Filter inside the HNSW graph rather than after it (see below). */
  inGraph?: boolean;
  /** Calibration's held-out fold: its own BM25 and the dense entries to skip. */
  holdOut?: { lexical: LexicalIndex; excluded: Set<number> };
}

export function findCandidates(
  sources: CandidateSources,
  text: string,
  vector: Float32Array,
  scope: CandidateScope = {},
): Candidates {
  const { allowed, holdOut } = scope;
  const { entries, categoryOf, vectors } = sources;
  const dense = new Map<string, number>();
  const inScope = (tool: string | null | undefined): tool is string =>
    !!tool && (!allowed || allowed.has(categoryOf.get(tool) ?? ""));
  // hnswlib calls a filter back into JavaScript for every node it visits, which costs more than the
  // search; tier 1's departments are large, so filtering the global neighbours is enough there. Only a
  // caller's explicit categories and calibration's held-out entries are filtered inside the graph.
  const hits = sources.dense.search(
    vector,
    DENSE_FETCH,
    holdOut || (allowed && scope.inGraph)
      ? (label) => !holdOut?.excluded.has(label) && inScope(entries.get(label)?.tool)
      : undefined,
  );
  for (const hit of hits) {
    const tool = entries.get(hit.label)?.tool;
    if (!inScope(tool)) continue;
    if (hit.similarity > (dense.get(tool) ?? -1)) dense.set(tool, hit.similarity);
  }
  const found = (holdOut?.lexical ?? sources.lexical).search(text);
  // The top first: it leaves most dense candidates' scores in BM25's accumulator, cheaper to read than to
  // compute again.
  const lexicalTop = found.top(allowed ? LEXICAL_FETCH * 4 : LEXICAL_FETCH);
  const lexical = new Map<string, number>();
  for (const tool of dense.keys()) {
    const s = found.score(tool);
    if (s > 0) lexical.set(tool, s);
  }
  // Lexical finds tools the dense half missed: give them their exact dense score, so fusion compares
  // like with like.
  let added = 0;
  for (const [tool, s] of lexicalTop) {
    if (added >= LEXICAL_FETCH) break;
    if (dense.has(tool) || !inScope(tool)) continue;
    added++;
    let best = -1;
    for (const label of sources.labelsOf(tool)) {
      if (holdOut?.excluded.has(label)) continue;
      const v = vectors.get(label);
      if (v) best = Math.max(best, dot(vector, v));
    }
    dense.set(tool, best);
    lexical.set(tool, s);
  }
  let reject = 0;
  if (holdOut) {
    for (const label of sources.rejectLabels) {
      if (holdOut.excluded.has(label)) continue;
      const v = vectors.get(label);
      if (v) reject = Math.max(reject, dot(vector, v));
    }
  } else {
    for (const v of rejectVectors(sources)) reject = Math.max(reject, dot(vector, v));
  }
  return { dense, lexical, reject };
}

/**
 * The no-tool examples' vectors copied into one block of memory, per set of labels (the router replaces
 * its label array whenever the set changes). Scattered over the heap they cost a cache miss each, which
 * measured as much as the HNSW search itself at 100k tools.
 */
const rejectBlocks = new WeakMap<readonly number[], Float32Array[]>();

function rejectVectors(sources: CandidateSources): Float32Array[] {
  const cached = rejectBlocks.get(sources.rejectLabels);
  if (cached) return cached;
  const found = sources.rejectLabels.flatMap((label) => sources.vectors.get(label) ?? []);
  const dimension = found[0]?.length ?? 0;
  const block = new Float32Array(found.length * dimension);
  const views = found.map((v, i) => {
    block.set(v, i * dimension);
    return block.subarray(i * dimension, (i + 1) * dimension);
  });
  rejectBlocks.set(sources.rejectLabels, views);
  return views;
}
