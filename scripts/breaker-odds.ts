// The odds that independent faults trip a breaker that is not facing an outage (`node
// scripts/breaker-odds.ts`, JSON on stdout), for src/dispatch/README.md. The default breaker opens on 30
// provider faults in a row; the chance that n attempts at fault rate p hold such a run is computed exactly,
// by dynamic programming over the length of the current run. The old default (failure rate ≥ 0.5 over a
// window of 20 attempts, at least 10) is estimated by simulation for comparison.
import { parseOptions } from "../src/dispatch/options.ts";

const { consecutiveFailures } = parseOptions({}).breaker;

/** P(some run of ≥ k failures within n independent attempts, each failing with probability p). */
function runProbability(n: number, p: number, k: number): number {
  // state[j]: probability that no run of k has happened and the current run is j long.
  let state = new Float64Array(k);
  state[0] = 1;
  let tripped = 0;
  for (let i = 0; i < n; i++) {
    const next = new Float64Array(k);
    let alive = 0;
    for (let j = 0; j < k; j++) alive += state[j] as number;
    next[0] = alive * (1 - p);
    for (let j = 0; j < k - 1; j++) next[j + 1] = (state[j] as number) * p;
    tripped += (state[k - 1] as number) * p;
    state = next;
  }
  return tripped;
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

/** The old default, simulated: share of runs of n attempts in which the window tripped. */
function oldWindowTrips(n: number, p: number, runs: number): number {
  const random = seeded(2026);
  let trips = 0;
  for (let r = 0; r < runs; r++) {
    const window: boolean[] = [];
    let failures = 0;
    for (let i = 0; i < n; i++) {
      const failed = random() < p;
      window.push(failed);
      if (failed) failures++;
      if (window.length > 20 && window.shift()) failures--;
      if (window.length >= 10 && failures >= 0.5 * window.length) {
        trips++;
        break;
      }
    }
  }
  return trips / runs;
}

const sci = (x: number) => (x === 0 ? "0" : x.toExponential(1));
const rates = [0.1, 0.3, 0.5];
const table = rates.map((p) => ({
  faultRate: p,
  perAttempt: sci((1 - p) * p ** consecutiveFailures),
  within10kAttempts: sci(runProbability(10_000, p, consecutiveFailures)),
  within1MAttempts: sci(runProbability(1_000_000, p, consecutiveFailures)),
  oldDefaultWithin1kAttempts: oldWindowTrips(1_000, p, 2_000),
}));
console.log(JSON.stringify({ consecutiveFailures, table }, null, 2));
