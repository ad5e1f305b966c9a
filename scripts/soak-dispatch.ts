// Soak test for the dispatcher (`npm run soak:dispatch`): the figures of issue 4, as JSON on stdout.
// Providers are the fault-injection stand-ins from test/dispatch/harness.ts; delays are scaled down (base
// 1-50 ms instead of 500 ms) so the run takes seconds, not hours. Exit code 1 when a target is missed.
import { performance } from "node:perf_hooks";
import { Dispatcher, type Provider, type RetryNotice } from "../src/dispatch/index.ts";
import {
  catalog,
  faultError,
  faultyProvider,
  readTool,
  seeded,
  writeTool,
} from "../test/dispatch/harness.ts";

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

async function readOnlyUnderFaults() {
  const kinds = ["ECONNRESET", "ETIMEDOUT", "UND_ERR_SOCKET", "429", "503", "hang"] as const;
  const primary = faultyProvider({ id: "primary", failRate: 0.3, kinds: [...kinds], random: seeded(1) });
  const secondary = faultyProvider({ id: "secondary", failRate: 0.3, kinds: [...kinds], random: seeded(2) });
  const tool = readTool("search", {
    policy: {
      timeoutMs: 50,
      retry: { retries: 3, baseMs: 1, maxMs: 20 },
      breaker: { failureRate: 0.5, windowSize: 100, minCalls: 50, cooldownMs: 100 },
    },
  });
  const dispatcher = new Dispatcher({ tools: catalog(tool), providers: () => [primary, secondary] });
  let breakerOpenings = 0;
  dispatcher.on("breaker", (c) => {
    if (c.state === "open") breakerOpenings++;
  });
  const calls = 10_000;
  const started = performance.now();
  let completed = 0;
  let servedBySecondary = 0;
  const failures: Record<string, number> = {};
  for (let offset = 0; offset < calls; offset += 100) {
    const batch = Array.from({ length: 100 }, (_, i) => ({
      id: `r${offset + i}`,
      name: "search",
      arguments: { i },
    }));
    for (const result of await dispatcher.execute(batch)) {
      if (result.status === "completed") {
        completed++;
        if (result.provenance.provider === "secondary") servedBySecondary++;
      } else failures[result.error?.class ?? "?"] = (failures[result.error?.class ?? "?"] ?? 0) + 1;
    }
  }
  const successRate = completed / calls;
  return {
    calls,
    failRate: 0.3,
    kinds,
    successRate,
    servedBySecondary,
    failures,
    breakerOpenings,
    invocations: { primary: primary.invocations, secondary: secondary.invocations },
    seconds: Math.round(performance.now() - started) / 1000,
    target: "≥ 99.9% succeed",
    pass: successRate >= 0.999,
  };
}

async function writeRunsOnce() {
  const byCall = new Map<string, number>();
  const random = seeded(3);
  const recordingProvider = (id: string): Provider => ({
    id,
    async invoke(_args, { callId }) {
      byCall.set(callId, (byCall.get(callId) ?? 0) + 1);
      if (random() < 0.3) throw faultError(random() < 0.5 ? "ECONNRESET" : "503");
      return { ok: true };
    },
  });
  // The breaker is set to open only on total failure: here the point is what retries do, not the breaker.
  const tool = writeTool("send", { policy: { retry: { baseMs: 1 }, breaker: { failureRate: 1 } } });
  const providers = [recordingProvider("primary"), recordingProvider("secondary")];
  const dispatcher = new Dispatcher({ tools: catalog(tool), providers: () => providers });
  const calls = 1000;
  const results = await dispatcher.execute(
    Array.from({ length: calls }, (_, i) => ({ id: `w${i}`, name: "send", arguments: {} })),
  );
  const executions = [...byCall.values()];
  const failed = results.filter((r) => r.status !== "completed").length;
  return {
    calls,
    failed,
    callsExecuted: byCall.size,
    maxExecutionsPerCall: Math.max(...executions),
    target: "every call executed exactly once",
    pass: byCall.size === calls && executions.every((n) => n === 1),
  };
}

async function breakerCycle() {
  const provider = faultyProvider({ failRate: 1, kinds: ["503"] });
  const breaker = { failureRate: 0.5, windowSize: 20, minCalls: 10, cooldownMs: 200, halfOpenProbes: 1 };
  const tool = readTool("flaky", { policy: { retry: { retries: 0 }, breaker } });
  const dispatcher = new Dispatcher({ tools: catalog(tool), providers: () => [provider] });
  const transitions: string[] = [];
  dispatcher.on("breaker", (c) => transitions.push(c.state));
  let n = 0;
  const call = async () => (await dispatcher.execute([{ id: `b${n++}`, name: "flaky", arguments: {} }]))[0];
  let callsUntilOpen = 0;
  while (dispatcher.breakers()[0]?.state !== "open" && callsUntilOpen < 100) {
    await call();
    callsUntilOpen++;
  }
  const rejectedWhileOpen = (await call())?.error?.class === "breaker_open";
  provider.failRate = 0;
  await new Promise((r) => setTimeout(r, breaker.cooldownMs + 20));
  const probe = await call();
  return {
    window: breaker,
    callsUntilOpen,
    rejectedWhileOpen,
    probeStatus: probe?.status,
    transitions,
    target: "opens within its window under total failure, closes through half-open on recovery",
    pass:
      callsUntilOpen <= breaker.windowSize &&
      rejectedWhileOpen &&
      transitions.join(",") === "open,half_open,closed",
  };
}

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
    options: { globalConcurrency: 100 },
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
    options: { globalConcurrency: 10, queueTimeoutMs },
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

const report = {
  readOnlyUnderFaults: await readOnlyUnderFaults(),
  writeRunsOnce: await writeRunsOnce(),
  breakerCycle: await breakerCycle(),
  spreadRetries: await spreadRetries(),
  queuedUnderGlobalLimit: await queuedUnderGlobalLimit(),
  unhandledRejections: 0,
};
await new Promise((r) => setTimeout(r, 100)); // let late rejections surface before counting
report.unhandledRejections = unhandled;
const pass = Object.values(report).every((v) => typeof v !== "object" || v.pass) && unhandled === 0;
console.log(JSON.stringify({ pass, ...report }, null, 2));
process.exit(pass ? 0 : 1);
