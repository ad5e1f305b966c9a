// Score fusion. Neither half wins everywhere (dense wins on paraphrased intents, BM25 on API-style names),
// and rank fusion (RRF) throws away how confident each half is, which is what the threshold needs. So the
// fused score is a convex mix of the dense cosine and the lexical score, with the weights calibrated per
// catalog. The lexical score is itself a mix: BM25's coverage (share of the query's IDF mass a tool
// matches, 0..1) and subword similarity (subword.ts, 0..1), which catches what differs inside a word.

/** `name`: whatever identifies a tool to the caller (the router uses its tool numbers). */
export interface Scored<K = string> {
  name: K;
  dense: number;
  lexical: number;
  subword: number;
  fused: number;
}

/** Each half's score per candidate; a candidate missing from a map scores 0 there. */
export interface HalfScores<K> {
  dense: ReadonlyMap<K, number>;
  lexical: ReadonlyMap<K, number>;
  subword: ReadonlyMap<K, number>;
}

export interface FusionWeights {
  /** Weight of the lexical score against the dense one. */
  lexicalWeight: number;
  /** Share of the lexical score that is subword similarity rather than BM25. */
  subwordShare: number;
}

export function fuse<K>(scores: HalfScores<K>, weights: FusionWeights): Scored<K>[] {
  const { lexicalWeight, subwordShare } = weights;
  const out: Scored<K>[] = [];
  const add = (name: K) => {
    const d = scores.dense.get(name) ?? 0;
    const l = scores.lexical.get(name) ?? 0;
    const s = scores.subword.get(name) ?? 0;
    const fused = (1 - lexicalWeight) * d + lexicalWeight * ((1 - subwordShare) * l + subwordShare * s);
    out.push({ name, dense: d, lexical: l, subword: s, fused });
  };
  // Every candidate once, dense ones first (ties keep this order: the sort is stable), with no set of names.
  for (const name of scores.dense.keys()) add(name);
  for (const name of scores.lexical.keys()) if (!scores.dense.has(name)) add(name);
  return out.sort((a, b) => b.fused - a.fused);
}
