// Retrieval and no-tool detection metrics, as `switchboard eval` reports them.

export interface Judged {
  /** Gold tool names; empty when the query needs no tool. */
  gold: readonly string[];
  /** Ranked tool names, best first. */
  ranked: readonly string[];
  /** The router's confidence that some tool fits (the top fused score). */
  confidence: number;
  matched: boolean;
  ms: number;
}

export interface Metrics {
  [key: string]: number | null;
}

/** hit@1, recall@K, complete@K and MRR over queries with tools; AUROC and accuracy of matched over all. */
export function evaluate(judged: readonly Judged[], k: number): Metrics {
  const withTools = judged.filter((j) => j.gold.length > 0);
  let hit = 0;
  let recall = 0;
  let complete = 0;
  let mrr = 0;
  for (const j of withTools) {
    const top = j.ranked.slice(0, k);
    if (j.gold.includes(j.ranked[0] ?? "")) hit++;
    const found = j.gold.filter((g) => top.includes(g)).length;
    recall += found / j.gold.length;
    if (found === j.gold.length) complete++;
    const rank = j.ranked.findIndex((name) => j.gold.includes(name));
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  const n = withTools.length || 1;
  const ms = judged.map((j) => j.ms).sort((a, b) => a - b);
  return {
    "hit@1": round(hit / n),
    [`recall@${k}`]: round(recall / n),
    [`complete@${k}`]: round(complete / n),
    mrr: round(mrr / n),
    noToolAUROC: auroc(judged),
    noToolAccuracy: judged.length
      ? round(judged.filter((j) => j.matched === j.gold.length > 0).length / judged.length)
      : null,
    p50Ms: round(percentile(ms, 0.5)),
    p99Ms: round(percentile(ms, 0.99)),
  };
}

/**
 * How well the confidence separates queries that need a tool (positives) from those that need none: the
 * probability that a random positive scores above a random negative. Null when either class is missing.
 */
/** Only whether a query has gold tools counts, so any kind of tool identity will do. */
export function auroc(judged: readonly { gold: readonly unknown[]; confidence: number }[]): number | null {
  const pos = judged.filter((j) => j.gold.length > 0).map((j) => j.confidence);
  const neg = judged.filter((j) => j.gold.length === 0).map((j) => j.confidence);
  if (pos.length === 0 || neg.length === 0) return null;
  // Rank-sum (Mann-Whitney U) with ties counted half.
  const all = [...pos.map((v) => ({ v, p: true })), ...neg.map((v) => ({ v, p: false }))].sort(
    (a, b) => a.v - b.v,
  );
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]?.v === all[i]?.v) j++;
    const rank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (all[t]?.p) rankSum += rank;
    i = j;
  }
  return round((rankSum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length));
}

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
