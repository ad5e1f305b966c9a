// Overhead per successful call (`npm run bench:dispatch`, JSON on stdout): the full dispatcher pipeline
// (argument and output validation, slots, breaker, retry, timeout, budget, execution record) against a
// direct call, cockatiel's retry ∘ breaker, and opossum with its defaults, all in one run on one provider.
// Variants run interleaved in many short rounds, in an order that rotates each round, so drift in machine
// load (this machine is shared) and one variant's after-effects (its garbage, its cache footprint) fall on
// every variant alike.
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { ConsecutiveBreaker, circuitBreaker, ExponentialBackoff, handleAll, retry, wrap } from "cockatiel";
import { type CallResult, Dispatcher, type InvokeOptions, type Provider } from "../src/dispatch/index.ts";
import { catalog, readTool } from "../test/dispatch/harness.ts";

// opossum is CommonJS without type declarations; this is the part of its API the bench uses.
type OpossumBreaker = { fire(...args: unknown[]): Promise<unknown>; shutdown(): void };
const OpossumCircuitBreaker = createRequire(import.meta.url)("opossum") as new (
  action: (...args: unknown[]) => Promise<unknown>,
) => OpossumBreaker;

const provider: Provider = {
  id: "bench",
  invoke: async (args) => ({ temperature: 21.5, city: args.city }),
};
const options: InvokeOptions = { signal: new AbortController().signal, callId: "x", context: {} };
const args = { city: "Lisbon" };

const tool = readTool("weather", {
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  outputSchema: {
    type: "object",
    properties: { temperature: { type: "number" }, city: { type: "string" } },
    required: ["temperature"],
  },
});
const dispatcher = new Dispatcher({ tools: catalog(tool), providers: () => [provider] });
await dispatcher.ready();

const cockatiel = wrap(
  retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }),
  circuitBreaker(handleAll, { halfOpenAfter: 10_000, breaker: new ConsecutiveBreaker(5) }),
);
const opossum = new OpossumCircuitBreaker((a) => provider.invoke(a as Record<string, unknown>, options));

const ROUNDS = 40;
const PER_ROUND = 500;
// Enough warm-up calls that every variant is measured in V8's optimising tier, as in a long-running
// service; with fewer, the p50 fell where hot functions move between tiers and measured the JIT's timing.
const WARMUP = 30_000;

// The call ids a client would send, made before any clock starts (as `args` is for every variant): turning
// a number into a string is the caller's work, not the dispatcher's. Each id is a fresh string, so the
// dispatcher still hashes every id it sees for the first time, as it would one parsed from a request.
const ids = Array.from({ length: WARMUP + ROUNDS * PER_ROUND }, (_, i) => `c${i}`);
let n = 0;
// Each variant returns its library's own answer; the checks run after the clock stops, so no variant pays
// for a wrapper the others do not have.
const variants: Record<string, () => Promise<unknown>> = {
  direct: () => provider.invoke(args, options),
  dispatcher: () => dispatcher.execute([{ id: ids[n++] as string, name: "weather", arguments: args }]),
  cockatiel: () => cockatiel.execute(() => provider.invoke(args, options)),
  opossum: () => opossum.fire(args),
};
const checks: Record<string, (answer: unknown) => void> = {
  dispatcher: (answer) => {
    const [result] = answer as CallResult[];
    if (result?.status !== "completed") throw new Error(`bench call failed: ${result?.error?.message}`);
  },
};
const otherwise = (answer: unknown) => {
  if ((answer as { temperature?: unknown })?.temperature !== 21.5) throw new Error("bench call failed");
};

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));

for (const [name, run] of Object.entries(variants)) {
  const check = checks[name] ?? otherwise;
  for (let i = 0; i < WARMUP; i++) check(await run());
}
const order = Object.entries(variants);
for (let round = 0; round < ROUNDS; round++) {
  for (let v = 0; v < order.length; v++) {
    const [name, run] = order[(round + v) % order.length] as [string, () => Promise<unknown>];
    const into = samples[name] as number[];
    const check = checks[name] ?? otherwise;
    for (let i = 0; i < PER_ROUND; i++) {
      const start = performance.now();
      const answer = await run();
      into.push((performance.now() - start) * 1000);
      check(answer);
    }
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const round2 = (x: number) => Math.round(x * 100) / 100;
const stats = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return [
      name,
      { p50Us: round2(quantile(sorted, 0.5)), p95Us: round2(quantile(sorted, 0.95)), meanUs: round2(mean) },
    ];
  }),
) as Record<string, { p50Us: number; p95Us: number; meanUs: number }>;

const direct = stats.direct as { p50Us: number; meanUs: number };
const overhead = Object.fromEntries(
  Object.entries(stats)
    .filter(([name]) => name !== "direct")
    .map(([name, s]) => [
      name,
      { p50Us: round2(s.p50Us - direct.p50Us), meanUs: round2(s.meanUs - direct.meanUs) },
    ]),
) as Record<string, { p50Us: number; meanUs: number }>;

opossum.shutdown();
const dispatcherOverhead = overhead.dispatcher?.p50Us ?? Number.POSITIVE_INFINITY;
const opossumOverhead = overhead.opossum?.p50Us ?? 0;
console.log(
  JSON.stringify(
    {
      node: process.version,
      callsPerVariant: ROUNDS * PER_ROUND,
      latency: stats,
      overheadVsDirect: overhead,
      target: "dispatcher overhead p50 ≤ opossum overhead p50",
      ratio: round2(dispatcherOverhead / opossumOverhead),
      pass: dispatcherOverhead <= opossumOverhead,
    },
    null,
    2,
  ),
);
