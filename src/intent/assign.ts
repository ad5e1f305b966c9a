// One assignment step: every candidate (a mention for a parameter, with a weight) is weighed together and
// the placement with the greatest total weight wins, so no value is placed by its order alone when the
// words around it say otherwise. munkres (MIT, no dependencies) solves the maximum-weight matching.
import { munkres } from "munkres";

export interface Candidate<M, P> {
  mention: M;
  param: P;
  weight: number;
}

/** The best one-to-one placement of mentions to parameters; pairs without a candidate are never made. */
export function assignBest<M, P>(
  mentions: readonly M[],
  params: readonly P[],
  candidates: Candidate<M, P>[],
): Candidate<M, P>[] {
  if (candidates.length === 0) return [];
  const rowOf = new Map(mentions.map((m, i) => [m, i]));
  const colOf = new Map(params.map((p, i) => [p, i]));
  const none = 0;
  const weights = mentions.map(() => params.map(() => none));
  const pairs = new Map<string, Candidate<M, P>>();
  for (const c of candidates) {
    const row = rowOf.get(c.mention);
    const col = colOf.get(c.param);
    if (row === undefined || col === undefined || c.weight <= 0) continue;
    const key = `${row}:${col}`;
    const known = pairs.get(key);
    if (known && known.weight >= c.weight) continue;
    pairs.set(key, c);
    (weights[row] as number[])[col] = c.weight;
  }
  // munkres minimises cost: cost = max − weight, and a pair without a candidate costs the most.
  const max = Math.max(...candidates.map((c) => c.weight), 1);
  const cost = weights.map((row) => row.map((w) => max - w));
  return munkres(cost)
    .map(([row, col]) => pairs.get(`${row}:${col}`))
    .filter((c): c is Candidate<M, P> => c !== undefined);
}
