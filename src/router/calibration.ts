// Fitting the router's free parameters from labelled queries ({ query, tools }, tools empty = no tool):
// the lexical weight of the fusion and the subword share of the lexical score, the weight of the no-tool
// reject class, and the threshold τ. Grid searches over a few thousand candidate lists are instant, so no
// optimiser library is needed.
import { z } from "zod";
import { type FusionWeights, fuse } from "./fusion.ts";
import { auroc } from "./metrics.ts";

export const calibrationSchema = z.object({
  version: z.literal(1),
  embedderId: z.string(),
  lexicalWeight: z.number().min(0).max(1),
  /** Absent from calibrations fitted before subword similarity existed: they were fitted without it. */
  subwordShare: z.number().min(0).max(1).default(0),
  rejectWeight: z.number().min(0),
  threshold: z.number(),
  /** Tier-1 confidence from which routing stays within the chosen departments; null: always global. */
  tierConfidence: z.number().nullable(),
  /** Where the numbers come from, e.g. "fitted on 1175 labelled queries (100 without a tool)". */
  source: z.string(),
  /** When it was fitted; absent for shipped and uncalibrated defaults. */
  fittedAt: z.string().optional(),
  /** Labelled no-tool queries kept as reject-class examples (bounded). */
  noToolQueries: z.array(z.string()).default([]),
});
export type Calibration = z.infer<typeof calibrationSchema>;

export const MAX_NO_TOOL_QUERIES = 256;

/**
 * How much the query's closeness to its nearest tool text (best dense similarity) adds to the confidence.
 * The top fused score alone mixes in lexical coverage, which common words inflate for chit-chat; a query
 * far from every tool text is seldom a tool request. The exact weight matters little within a broad range
 * (docs/performance.md has the figures).
 */
const CLOSENESS_WEIGHT = 0.3;

/** The router's confidence that some tool fits: the top fused score, the no-tool pull, the closeness. */
export function confidence(
  topFused: number,
  dense: ReadonlyMap<unknown, number>,
  reject: number,
  rejectWeight: number,
): number {
  let closest = 0;
  for (const similarity of dense.values()) closest = Math.max(closest, similarity);
  return topFused - rejectWeight * reject + CLOSENESS_WEIGHT * closest;
}

/** The raw material of one labelled query: both halves' scores for its candidates, before fusion. */
export interface LabelledCandidates {
  /** Tool numbers, as the candidates are keyed (see candidates.ts). */
  gold: readonly number[];
  dense: ReadonlyMap<number, number>;
  lexical: ReadonlyMap<number, number>;
  subword: ReadonlyMap<number, number>;
  /** Best similarity to a no-tool example. */
  reject: number;
  /** Tier 1's choice for this query: its confidence and whether it kept every gold tool's department. */
  tier?: { confidence: number; kept: boolean };
}

export interface TradeOff {
  threshold: number;
  /** Share of tool-needing queries that match. */
  toolRecall: number;
  /** Share of no-tool queries that do not match. */
  noToolRejection: number | null;
  accuracy: number;
}

export interface Fit {
  tierConfidence: number | null;
  lexicalWeight: number;
  subwordShare: number;
  rejectWeight: number;
  threshold: number;
  quality: { hitAt1: number; mrr: number; noToolAUROC: number | null; accuracy: number };
  tradeOff: TradeOff[];
}

const WEIGHTS = Array.from({ length: 19 }, (_, i) => i * 0.05);
/**
 * Shares of the lexical score given to subword similarity. The grid lets a catalog turn it off. It stops at
 * 0.3: beyond it, on API-style catalogs, trigrams start to outweigh whole names (figures in
 * docs/performance.md).
 */
const SUBWORD_SHARES = [0, 0.15, 0.3];
const REJECT_WEIGHTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5];
/** The answer's size the ranking objective counts recall at: the default top K of a route. */
const RECALL_AT = 5;

export function fit(items: readonly LabelledCandidates[], fallback: { rejectWeight: number }): Fit {
  const positives = items.filter((i) => i.gold.length > 0);
  const negatives = items.filter((i) => i.gold.length === 0);
  // The ranking objective, over queries that need a tool: hit@1 plus recall@5, what an agent gets from the
  // first tool and from the answer. (hit@1 plus MRR, the earlier objective, rewards ranks past the answer.)
  let weights: FusionWeights = { lexicalWeight: 0, subwordShare: 0 };
  let best = -1;
  for (const subwordShare of SUBWORD_SHARES)
    for (const lexicalWeight of WEIGHTS) {
      let score = 0;
      for (const item of positives) {
        const top = fuse(item, { lexicalWeight, subwordShare }).slice(0, RECALL_AT);
        if (top[0] && item.gold.includes(top[0].name)) score += 1;
        score += top.filter((c) => item.gold.includes(c.name)).length / item.gold.length;
      }
      if (score > best + 1e-9) {
        best = score;
        weights = { lexicalWeight, subwordShare };
      }
    }
  const tops = items.map((item) => ({ item, top: fuse(item, weights)[0] }));
  const confidences = (rejectWeight: number) =>
    tops.map(({ item, top }) => ({
      gold: item.gold,
      confidence: confidence(top?.fused ?? 0, item.dense, item.reject, rejectWeight),
    }));
  let rejectWeight = fallback.rejectWeight;
  if (negatives.length > 0 && positives.length > 0) {
    let bestAuc = -1;
    for (const r of REJECT_WEIGHTS) {
      const auc = auroc(confidences(r)) ?? 0;
      if (auc > bestAuc + 1e-9) {
        bestAuc = auc;
        rejectWeight = r;
      }
    }
  }
  const scored = confidences(rejectWeight);
  const accuracyAt = (t: number) => scored.filter((s) => s.confidence >= t === s.gold.length > 0).length;
  const candidates = [...new Set(scored.map((s) => s.confidence))].sort((a, b) => a - b);
  let threshold: number;
  if (negatives.length > 0) {
    // Plain accuracy: the labelled set's share of no-tool queries stands for the traffic's.
    threshold = candidates[0] ?? 0;
    let bestAcc = -1;
    for (const t of candidates) {
      const acc = accuracyAt(t);
      if (acc > bestAcc) {
        bestAcc = acc;
        threshold = t;
      }
    }
  } else {
    // Without no-tool examples, keep 95% of the tool-needing queries matched.
    const sorted = scored.map((s) => s.confidence).sort((a, b) => a - b);
    threshold = sorted[Math.floor(sorted.length * 0.05)] ?? 0;
  }
  const tradeOff = [0.8, 0.9, 0.95, 1, 1.05, 1.1, 1.2].map((f) => {
    const t = round(threshold * f);
    return {
      threshold: t,
      toolRecall: round(
        scored.filter((s) => s.gold.length > 0 && s.confidence >= t).length / (positives.length || 1),
      ),
      noToolRejection: negatives.length
        ? round(scored.filter((s) => s.gold.length === 0 && s.confidence < t).length / negatives.length)
        : null,
      accuracy: round(accuracyAt(t) / (scored.length || 1)),
    };
  });
  let hit = 0;
  let mrr = 0;
  for (const item of positives) {
    const rank = fuse(item, weights).findIndex((c) => item.gold.includes(c.name));
    if (rank === 0) hit++;
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  return {
    tierConfidence: fitTierConfidence(positives),
    lexicalWeight: round(weights.lexicalWeight),
    subwordShare: weights.subwordShare,
    rejectWeight,
    threshold: round(threshold),
    quality: {
      hitAt1: round(hit / (positives.length || 1)),
      mrr: round(mrr / (positives.length || 1)),
      noToolAUROC: auroc(scored),
      accuracy: round(accuracyAt(threshold) / (scored.length || 1)),
    },
    tradeOff,
  };
}

/** Tier 2 may drop a query's tool; it is allowed from the lowest confidence where it keeps 99% of them. */
const TIER_KEEP = 0.99;
const MIN_TIERED = 20;

function fitTierConfidence(positives: readonly LabelledCandidates[]): number | null {
  const tiered = positives
    .flatMap((p) => (p.tier ? [p.tier] : []))
    .sort((a, b) => b.confidence - a.confidence);
  let kept = 0;
  let best: number | null = null;
  tiered.forEach((t, i) => {
    if (t.kept) kept++;
    if (i + 1 >= MIN_TIERED && kept / (i + 1) >= TIER_KEEP) best = t.confidence;
  });
  return best === null ? null : round(best);
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
