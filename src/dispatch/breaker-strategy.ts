// What opens a circuit: a statistic behind cockatiel's public `IBreaker` interface, so cockatiel's own
// ConsecutiveBreaker, CountBreaker and SamplingBreaker plug in unchanged.
//
// The default counts consecutive provider faults (30). Under independent faults at rate p a run of k in a
// row starts with probability (1-p)·p^k, which falls off so fast with k that 30 in a row tells an outage
// from bad luck at any fault rate a service can live with, while an outage opens the circuit after 30
// attempts whatever the traffic. A failure-rate window trips on ordinary bad luck far sooner. The README
// tabulates the false-trip probabilities (scripts/breaker-odds.ts computes them).
// A tool that sets `failureRate`, `windowSize`, `minCalls` or `windowMs` gets that window instead.
import { ConsecutiveBreaker, CountBreaker, type IBreaker, SamplingBreaker } from "cockatiel";
import type { BreakerSettings } from "./options.ts";

export function breakerStrategy(settings: BreakerSettings): IBreaker {
  const { failureRate, windowSize, windowMs, minCalls } = settings;
  const rateWindow =
    failureRate !== undefined || windowSize !== undefined || windowMs !== undefined || minCalls !== undefined;
  if (!rateWindow) return new ConsecutiveBreaker(settings.consecutiveFailures);
  // cockatiel opens when failures exceed threshold·total; "reaches the rate" needs a hair less, and its
  // threshold must stay below 1.
  const threshold = Math.min(failureRate ?? 0.5, 1) - 1e-9;
  const least = minCalls ?? 10;
  if (windowMs !== undefined)
    return new SamplingBreaker({ threshold, duration: windowMs, minimumRps: (least * 1000) / windowMs });
  const size = windowSize ?? 20;
  return new CountBreaker({ threshold, size, minimumNumberOfCalls: Math.min(least, size) });
}
