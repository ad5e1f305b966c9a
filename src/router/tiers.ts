// Tier 1, as a switchboard sends a caller to a department: each category (a tool's `category`, or a cluster
// of tool vectors when the catalog has none) has a centroid; a query close enough to a few centroids is
// ranked only among their tools (tier 2), otherwise among all tools ("global").

import { VectorStore } from "./vector-store.ts";

/** Categories closer than this (in centroid similarity) to the best one are taken along. */
const TAKE_WITHIN = 0.05;
const MAX_TAKEN = 3;
/** Below this many tools a catalog is one department. */
export const MIN_TOOLS_FOR_TIERS = 50;

export interface TierChoice {
  categories: Set<string>;
  /** How far the best category stands above the first one left out. */
  confidence: number;
}

export class Tiers {
  /**
   * Unnormalised sums of member vectors, updated as tools come and go; `stale` until the first query after
   * a change puts the normalised sum into `centroids` under the category's id.
   */
  private readonly sums = new Map<string, { id: number; sum: Float32Array; count: number; stale: boolean }>();
  /** The centroids, compared with a query by SIMD products: a JavaScript product per centroid costs every route. */
  private centroids: VectorStore | undefined;
  private nextId = 0;

  add(category: string, vector: Float32Array, sign: 1 | -1 = 1): void {
    let entry = this.sums.get(category);
    if (!entry) {
      entry = { id: this.nextId++, sum: new Float32Array(vector.length), count: 0, stale: true };
      this.sums.set(category, entry);
    }
    for (let i = 0; i < vector.length; i++)
      entry.sum[i] = (entry.sum[i] as number) + sign * (vector[i] as number);
    entry.count += sign;
    entry.stale = true;
    if (entry.count <= 0) {
      this.sums.delete(category);
      this.centroids?.delete(entry.id);
    }
  }

  get size(): number {
    return this.sums.size;
  }

  choose(query: Float32Array): TierChoice | undefined {
    if (this.sums.size < 3) return undefined;
    this.centroids ??= new VectorStore(query.length);
    const centroids = this.centroids;
    for (const entry of this.sums.values()) {
      if (!entry.stale) continue;
      centroids.set(entry.id, unit(entry.sum.slice()));
      entry.stale = false;
    }
    centroids.query(query);
    const ranked = [...this.sums]
      .map(([category, entry]) => ({ category, similarity: centroids.similarity(entry.id) }))
      .sort((a, b) => b.similarity - a.similarity);
    const top = ranked[0]?.similarity ?? 0;
    const taken = ranked.filter((r, i) => i < MAX_TAKEN && r.similarity >= top - TAKE_WITHIN);
    const firstLeftOut = ranked[taken.length]?.similarity ?? -1;
    return { categories: new Set(taken.map((t) => t.category)), confidence: top - firstLeftOut };
  }
}

/**
 * Tools per department that the centroids are fitted on. Like faiss's `max_points_per_centroid`: past a few
 * dozen points per centroid a larger sample barely moves the centroids, and every round costs n·k products.
 */
const FIT_POINTS_PER_CENTROID = 64;

/**
 * Departments for a catalog without categories: k-means (k-means++ seeding, a fixed number of rounds) over
 * the tools' vectors, fitted on an evenly spread sample of a large catalog, then every tool assigned once.
 * Hand-written: twenty lines, and no maintained k-means package ships typed ESM.
 */
export function cluster(vectors: readonly Float32Array[], k: number, seed = 1): number[] {
  const stride = Math.max(1, Math.floor(vectors.length / (k * FIT_POINTS_PER_CENTROID)));
  const sample = stride === 1 ? vectors : vectors.filter((_, i) => i % stride === 0);
  const centroids = fitCentroids(sample, k, seed);
  return vectors.map((v) => argmax(centroids.map((c) => dot(v, c))));
}

function fitCentroids(vectors: readonly Float32Array[], k: number, seed: number): Float32Array[] {
  let state = seed;
  const rand = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const centroids: Float32Array[] = [vectors[Math.floor(rand() * vectors.length)] as Float32Array];
  const nearest = vectors.map((v) => 1 - dot(v, centroids[0] as Float32Array));
  while (centroids.length < k) {
    const total = nearest.reduce((a, b) => a + Math.max(0, b), 0);
    let r = rand() * total;
    let chosen = 0;
    for (; chosen < vectors.length - 1 && r > Math.max(0, nearest[chosen] ?? 0); chosen++)
      r -= Math.max(0, nearest[chosen] ?? 0);
    const c = vectors[chosen] as Float32Array;
    centroids.push(c);
    vectors.forEach((v, i) => {
      nearest[i] = Math.min(nearest[i] ?? 1, 1 - dot(v, c));
    });
  }
  for (let round = 0; round < 8; round++) {
    const sums = centroids.map(() => new Float32Array(vectors[0]?.length ?? 0));
    for (const v of vectors) {
      const sum = sums[argmax(centroids.map((c) => dot(v, c)))] as Float32Array;
      for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (v[d] as number);
    }
    sums.forEach((sum, j) => {
      if (sum.some((x) => x !== 0)) centroids[j] = unit(sum);
    });
  }
  return centroids;
}

/**
 * Inner product. Four accumulators let the CPU overlap the multiply-adds instead of waiting on one running
 * sum, and routing takes dozens of products per query.
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += (a[i] as number) * (b[i] as number);
    s1 += (a[i + 1] as number) * (b[i + 1] as number);
    s2 += (a[i + 2] as number) * (b[i + 2] as number);
    s3 += (a[i + 3] as number) * (b[i + 3] as number);
  }
  for (; i < n; i++) s0 += (a[i] as number) * (b[i] as number);
  return s0 + s1 + (s2 + s3);
}

function unit(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / n;
  return v;
}

function argmax(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  return best;
}
