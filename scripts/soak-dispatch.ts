// Soak test for the dispatcher (`npm run soak:dispatch`), JSON on stdout, exit code 1 when a target is
// missed. First the real service (`switchboard serve`) at the default policy in front of a flaky loopback
// stand-in upstream (test/dispatch/soak-service.ts): 2,000 reads at 30% independent faults (503 without
// Retry-After, connection resets, timeouts), 500 non-idempotent writes at 30% faults, an outage of 1,000
// calls and the recovery after it. Then, in process with the fault-injection stand-ins of
// test/dispatch/harness.ts, how retries spread and how the global slot limit holds.
import { performance } from "node:perf_hooks";
import { Dispatcher, type Provider, type RetryNotice } from "../src/dispatch/index.ts";
import { catalog, faultError, faultyProvider, readTool } from "../test/dispatch/harness.ts";
import { soakService } from "../test/dispatch/soak-service.ts";

let unhandled = 0;
process.on("unhandledRejection", () => {
  unhandled++;
});

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    n: sorted.length,
    min: round(at(0)),
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(at(1)),
  };
};

async function spreadRetries() {
  const failedOnce = new Set<string>();
  const provider: Provider = {
    id: "primary",
    async invoke(_args, { callId }) {
      if (!failedOnce.has(callId)) {
        failedOnce.add(callId);
        throw faultError("ECONNRESET");
      }
      return { ok: true };
    },
  };
  // A herd of 100 failures would (rightly) open a default breaker; the point here is the retry spread.
  const tool = readTool("api", {
    policy: {
      concurrency: { limit: 100 },
      retry: { baseMs: 50 },
      breaker: { windowSize: 200, minCalls: 200 },
    },
  });
  const dispatcher = new Dispatcher({
    tools: catalog(tool),
    providers: () => [provider],
    options: { globalConcurrency: 100, perKeyCalls: 100 },
  });
  const retries: RetryNotice[] = [];
  dispatcher.on("retry", (n) => retries.push(n));
  const results = await dispatcher.execute(
    Array.from({ length: 100 }, (_, i) => ({ id: `s${i}`, name: "api", arguments: {} })),
  );
  const delays = retries.map((r) => r.delayMs);
  const distinct = new Set(delays).size;
  // The largest number of retries landing in any one 5 ms slot: a thundering herd would put all 100 there.
  const slots = new Map<number, number>();
  for (const d of delays) slots.set(Math.floor(d / 5), (slots.get(Math.floor(d / 5)) ?? 0) + 1);
  const busiestSlot = Math.max(...slots.values());
  return {
    calls: 100,
    completed: results.filter((r) => r.status === "completed").length,
    delaysMs: summary(delays),
    distinctDelays: distinct,
    busiestFiveMsSlot: busiestSlot,
    target: "100 simultaneous failures retry at spread times (base 50 ms ± 50%)",
    // Uniform jitter over 50 ms puts ~10 in each 5 ms slot; a herd would put all 100 in one.
    pass: results.every((r) => r.status === "completed") && distinct >= 30 && busiestSlot <= 25,
  };
}

async function queuedUnderGlobalLimit() {
  const provider = faultyProvider({ latencyMs: 20 });
  const tool = readTool("slow", { policy: { concurrency: { limit: 1000 } } });
  const queueTimeoutMs = 500;
  const dispatcher = new Dispatcher({
    tools: catalog(tool),
    providers: () => [provider],
    // One in-process caller queues all 1,000: the per-key limit is not what this measures.
    options: { globalConcurrency: 10, queueTimeoutMs, perKeyCalls: 1000 },
  });
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const results = await dispatcher.execute(
    Array.from({ length: 1000 }, (_, i) => ({ id: `q${i}`, name: "slow", arguments: {} })),
  );
  const seconds = (performance.now() - started) / 1000;
  global.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const timedOut = results.filter((r) => r.error?.class === "queue_timeout");
  const waits = timedOut.map((r) => r.timing.queuedMs);
  const onTime = waits.every((w) => w >= queueTimeoutMs - 1 && w <= queueTimeoutMs + 250);
  return {
    calls: 1000,
    globalLimit: 10,
    maxInFlight: provider.maxInFlight,
    completed: results.filter((r) => r.status === "completed").length,
    queueTimeouts: timedOut.length,
    queueTimeoutMs,
    timedOutAfterMs: summary(waits),
    heapDeltaMB: Math.round(((heapAfter - heapBefore) / 2 ** 20) * 10) / 10,
    seconds: Math.round(seconds * 1000) / 1000,
    target: "never more than 10 in flight; waits end at the queue timeout; bounded memory",
    pass:
      provider.maxInFlight <= 10 && timedOut.length > 0 && onTime && heapAfter - heapBefore < 64 * 2 ** 20,
  };
}

const service = await soakService({
  reads: 2000,
  writes: 500,
  outageCalls: 1000,
  concurrency: 16,
  failRate: 0.3,
});
const report = {
  service,
  spreadRetries: await spreadRetries(),
  queuedUnderGlobalLimit: await queuedUnderGlobalLimit(),
  unhandledRejections: 0,
};
await new Promise((r) => setTimeout(r, 100)); // let late rejections surface before counting
report.unhandledRejections = unhandled;
const pass = Object.values(report).every((v) => typeof v !== "object" || v.pass) && unhandled === 0;
console.log(JSON.stringify({ pass, ...report }, null, 2));
process.exit(pass ? 0 : 1);
