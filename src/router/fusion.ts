// Score fusion. Neither half wins everywhere (dense wins on paraphrased intents, BM25 on API-style names),
// and rank fusion (RRF) throws away how confident each half is, which is what the threshold needs. So the
// fused score is a convex mix of the dense cosine and the lexical coverage (share of the query's IDF mass a
// tool matches, 0..1), with the weight calibrated per catalog.

/** `name`: whatever identifies a tool to the caller (the router uses its tool numbers). */
export interface Scored<K = string> {
  name: K;
  dense: number;
  lexical: number;
  fused: number;
}

export function fuse<K>(
  dense: ReadonlyMap<K, number>,
  lexical: ReadonlyMap<K, number>,
  lexicalWeight: number,
): Scored<K>[] {
  const out: Scored<K>[] = [];
  const names = new Set([...dense.keys(), ...lexical.keys()]);
  for (const name of names) {
    const d = dense.get(name) ?? 0;
    const l = lexical.get(name) ?? 0;
    out.push({ name, dense: d, lexical: l, fused: (1 - lexicalWeight) * d + lexicalWeight * l });
  }
  return out.sort((a, b) => b.fused - a.fused);
}
