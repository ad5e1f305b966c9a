// Candidate gathering, the hot part of every route: the dense neighbours grouped by tool, BM25 over the same
// tools, the tools only BM25 found (with their exact dense score), and the pull of the no-tool class. Fusion
// and the threshold (router.ts) only see what this returns.
import type { DenseIndex } from "./dense.ts";
import type { LexicalIndex, LexicalResult } from "./lexical.ts";
import { type SubwordIndex, trigrams } from "./subword.ts";
import type { VectorStore } from "./vector-store.ts";

/**
 * Dense entries fetched per query, before grouping by tool. 32 gave the same MetaTool (with examples),
 * bundled-catalog and API-catalog figures as 64, and lets the HNSW search run at ef 32 (see dense.ts).
 */
const DENSE_FETCH = 32;
/** Lexical-only tools that join the candidates. */
const LEXICAL_FETCH = 32;
/**
 * Up to this many dense entries the neighbours come from an exact scan of the vector store rather than the
 * HNSW graph: one WebAssembly call over every row costs less than hnswlib's fixed cost per search (copying
 * the query into a JavaScript array it reads element by element), and it is exact (docs/performance.md).
 */
const EXACT_SEARCH_MAX = 2048;

/** BM25's half of the candidates. It needs no vector, so a route computes it while the embedder works. */
export interface LexicalCandidates {
  result: LexicalResult;
  /** BM25's best LEXICAL_FETCH tools (document numbers: the router's tool numbers), best first. */
  top: readonly [number, number][];
  /** The query's trigrams, for subword similarity with the candidates. */
  grams: Uint32Array;
  /** Subword similarity of the tools in `top`, which are candidates whatever the dense half finds. */
  subword: ReadonlyMap<number, number>;
}

export function searchLexical(
  index: LexicalIndex,
  subwordIndex: SubwordIndex,
  text: string,
): LexicalCandidates {
  const result = index.search(text);
  const top = result.topDocs(LEXICAL_FETCH);
  const grams = trigrams(text);
  const subword = new Map<number, number>();
  subwordIndex.similarities(
    grams,
    top.map(([doc]) => doc),
    subword,
  );
  return { result, top, grams, subword };
}

/** Keyed by tool number (IndexFiles.toolNumber): names would each be a cache miss at 100k tools. */
export interface Candidates {
  /** Best dense similarity per candidate tool. */
  dense: Map<number, number>;
  /** Normalised BM25 per candidate tool that shares a term with the query. */
  lexical: Map<number, number>;
  /** Subword similarity (subword.ts) of every candidate tool. */
  subword: Map<number, number>;
  /** Best similarity to a no-tool example. */
  reject: number;
}

/** What the router holds that candidate gathering reads. */
export interface CandidateSources {
  readonly dense: DenseIndex;
  readonly lexical: LexicalIndex;
  readonly subword: SubwordIndex;
  readonly vectors: VectorStore;
  readonly rejectLabels: readonly number[];
  /** The category (given or clustered) of a tool by number. */
  categoryOf(number: number): string | undefined;
  /** The number of a label's tool, which is also its BM25 document number; -1 for none. */
  numberOfLabel(label: number): number;
  labelsOfNumber(number: number): readonly number[];
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
  lexicalHalf: LexicalCandidates = searchLexical(
    scope.holdOut?.lexical ?? sources.lexical,
    sources.subword,
    text,
  ),
): Candidates {
  const { allowed, holdOut } = scope;
  const { vectors } = sources;
  const inScope = (tool: number): boolean =>
    tool >= 0 && (!allowed || allowed.has(sources.categoryOf(tool) ?? ""));
  const found = lexicalHalf.result;
  // Departments leave out some of BM25's best: look deeper for LEXICAL_FETCH of theirs. Either way the last
  // top leaves most candidates' scores in BM25's accumulator, cheaper to read than to compute again.
  const lexicalTop = allowed ? found.topDocs(LEXICAL_FETCH * 4) : lexicalHalf.top;
  const dense = new Map<number, number>();
  const lexical = new Map<number, number>();
  // hnswlib calls a filter back into JavaScript for every node it visits, which costs more than the
  // search; tier 1's departments are large, so filtering the global neighbours is enough there. Only a
  // caller's explicit categories and calibration's held-out entries are filtered inside the graph.
  const accept =
    holdOut || (allowed && scope.inGraph)
      ? (label: number) => !holdOut?.excluded.has(label) && inScope(sources.numberOfLabel(label))
      : undefined;
  vectors.query(vector);
  const hits =
    vectors.size <= EXACT_SEARCH_MAX
      ? vectors.search(DENSE_FETCH, accept)
      : sources.dense.search(vector, DENSE_FETCH, accept);
  for (const hit of hits) {
    const tool = sources.numberOfLabel(hit.label);
    if (!inScope(tool)) continue;
    const best = dense.get(tool);
    if (best === undefined) {
      // The tool's number is its BM25 document.
      const s = found.scoreOf(tool);
      if (s > 0) lexical.set(tool, s);
    }
    if (hit.similarity > (best ?? -1)) dense.set(tool, hit.similarity);
  }
  // Lexical finds tools the dense half missed: give them their exact dense score, so fusion compares
  // like with like.
  let added = 0;
  for (const [tool, s] of lexicalTop) {
    if (added >= LEXICAL_FETCH) break;
    if (dense.has(tool) || !inScope(tool)) continue;
    added++;
    let best = -1;
    for (const label of sources.labelsOfNumber(tool))
      if (!holdOut?.excluded.has(label)) best = Math.max(best, vectors.similarity(label));
    dense.set(tool, best);
    lexical.set(tool, s);
  }
  const subword = new Map(lexicalHalf.subword);
  sources.subword.similarities(lexicalHalf.grams, dense.keys(), subword);
  let reject = 0;
  for (const label of sources.rejectLabels)
    if (!holdOut?.excluded.has(label)) reject = Math.max(reject, vectors.similarity(label));
  return { dense, lexical, subword, reject };
}
