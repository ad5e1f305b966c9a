// Latency percentiles from the service's own Prometheus histograms (GET /metrics), computed as Prometheus's
// histogram_quantile does: linear interpolation inside the bucket that holds the rank. Hand-written: only
// `_bucket` lines of a histogram are read, which needs no full exposition-format parser.

export interface Latency {
  /** The label value the histogram was grouped by (a tool name), or "all". */
  group: string;
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

const LINE = /^(\w+)_bucket\{([^}]*)\}\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Cumulative bucket counts by upper bound, summed per group across the other labels. */
function buckets(text: string, metric: string, groupBy?: string): Map<string, Map<number, number>> {
  const groups = new Map<string, Map<number, number>>();
  for (const line of text.split("\n")) {
    const match = LINE.exec(line);
    if (!match || match[1] !== metric) continue;
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(LABEL)].map((m) => [m[1], m[2]]));
    const le = labels.le === "+Inf" ? Number.POSITIVE_INFINITY : Number(labels.le);
    const group = groupBy ? (labels[groupBy] ?? "") : "all";
    const byBound = groups.get(group) ?? new Map<number, number>();
    byBound.set(le, (byBound.get(le) ?? 0) + Number(match[3]));
    groups.set(group, byBound);
  }
  return groups;
}

function quantile(q: number, sorted: [number, number][]): number {
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return Number.NaN;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [bound, count] of sorted) {
    if (count >= rank) {
      // Past the last finite bucket, the best estimate is that bucket's upper bound.
      if (!Number.isFinite(bound)) return lowerBound;
      return lowerBound + ((bound - lowerBound) * (rank - lowerCount)) / (count - lowerCount || 1);
    }
    lowerBound = bound;
    lowerCount = count;
  }
  return lowerBound;
}

/** p50/p95/p99 in seconds of a histogram, per value of `groupBy` (or over all series). */
export function latencies(text: string, metric: string, groupBy?: string): Latency[] {
  return [...buckets(text, metric, groupBy).entries()]
    .map(([group, byBound]) => {
      const sorted = [...byBound.entries()].sort((a, b) => a[0] - b[0]);
      return {
        group,
        count: sorted.at(-1)?.[1] ?? 0,
        p50: quantile(0.5, sorted),
        p95: quantile(0.95, sorted),
        p99: quantile(0.99, sorted),
      };
    })
    .filter((latency) => latency.count > 0)
    .sort((a, b) => b.count - a.count || a.group.localeCompare(b.group));
}
