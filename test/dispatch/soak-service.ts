// The dispatcher's soak through the real service (`switchboard serve` as a child process, driven over
// HTTP) in front of the flaky stand-in upstream, with the tools at the default policy. Phases: reads at
// 30% independent faults, non-idempotent writes at 30% faults, an outage (every request fails), and the
// recovery after it. Used by test/dispatch/soak.test.ts (small) and `npm run soak:dispatch` (full).
import { performance } from "node:perf_hooks";
import { call as request, type Service, startService, writeCatalog } from "../server/harness.ts";
import { type FlakyUpstream, flakyTools, startFlakyUpstream } from "./flaky-upstream.ts";

export interface SoakOptions {
  reads: number;
  writes: number;
  outageCalls: number;
  concurrency: number;
  failRate: number;
}

interface Result {
  status: string;
  error?: { class: string };
  provenance?: { attempts: number };
}

interface Timed {
  result: Result;
  ms: number;
  /** performance.now() when the call was answered. */
  at: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function countBy(items: Timed[], key: (t: Timed) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

async function execute(service: Service, id: string, name: string, args: object): Promise<Timed> {
  const started = performance.now();
  const answer = await request(service, "POST", "/v1/execute", {
    body: { calls: [{ id, name, arguments: args }] },
  });
  const result = (answer.body?.results?.[0] ?? { status: `http_${answer.status}` }) as Result;
  const at = performance.now();
  return { result, ms: at - started, at };
}

/** `count` calls, `concurrency` at a time, in order of index. */
async function drive(
  count: number,
  concurrency: number,
  one: (i: number) => Promise<Timed>,
): Promise<Timed[]> {
  const results: Timed[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await one(i);
      }
    }),
  );
  return results;
}

async function readsUnderFaults(service: Service, upstream: FlakyUpstream, o: SoakOptions) {
  upstream.failRate = o.failRate;
  const before = upstream.requests;
  const started = performance.now();
  const results = await drive(o.reads, o.concurrency, (i) => execute(service, `r${i}`, "flaky_read", { i }));
  const completed = results.filter((r) => r.result.status === "completed").length;
  return {
    calls: o.reads,
    failRate: o.failRate,
    faults: upstream.faults,
    completed,
    completedShare: round(completed / o.reads, 4),
    failures: countBy(
      results.filter((r) => r.result.status !== "completed"),
      (r) => r.result.error?.class ?? r.result.status,
    ),
    upstreamRequestsPerCall: round((upstream.requests - before) / o.reads, 2),
    medianMs: round(median(results.map((r) => r.ms))),
    seconds: round((performance.now() - started) / 1000),
    target: "≥ 99.9% of read-only calls complete",
    pass: completed / o.reads >= 0.999,
  };
}

async function writesUnderFaults(service: Service, upstream: FlakyUpstream, o: SoakOptions) {
  upstream.failRate = o.failRate;
  const results = await drive(o.writes, o.concurrency, (i) =>
    execute(service, `w${i}`, "flaky_write", { id: `w${i}` }),
  );
  const ranTwice = [...upstream.writes.values()].filter((n) => n > 1).length;
  const doneButNotRun = results.filter(
    (r, i) => r.result.status === "completed" && upstream.writes.get(`w${i}`) !== 1,
  ).length;
  const failedThoughRan = results.filter(
    (r, i) => r.result.status !== "completed" && upstream.writes.has(`w${i}`),
  ).length;
  return {
    calls: o.writes,
    completed: results.filter((r) => r.result.status === "completed").length,
    failed: results.filter((r) => r.result.status !== "completed").length,
    ranTwice,
    doneButNotRun,
    // A fault after the upstream ran the write: reported failed, as the dispatcher cannot know it ran.
    failedThoughRan,
    attemptsPerCall: round(
      results.reduce((a, r) => a + (r.result.provenance?.attempts ?? 0), 0) / o.writes,
      2,
    ),
    target: "no write runs twice; no call reported done that was not done",
    pass: ranTwice === 0 && doneButNotRun === 0,
  };
}

async function outage(service: Service, upstream: FlakyUpstream, o: SoakOptions) {
  const faults = upstream.faults;
  upstream.faults = ["503", "reset"];
  upstream.failRate = 1;
  const before = upstream.requests;
  const started = performance.now();
  // Requests the upstream has seen when each call was answered, to count them from the breaker's opening.
  const seen: number[] = [];
  const results = await drive(o.outageCalls, o.concurrency, async (i) => {
    const timed = await execute(service, `o${i}`, "flaky_read", { i });
    seen[i] = upstream.requests;
    return timed;
  });
  const firstOpen = results.findIndex((r) => r.result.error?.class === "breaker_open");
  const openedAt = firstOpen < 0 ? Number.NaN : (results[firstOpen] as Timed).at;
  const afterOpen = results.filter((r) => r.at >= openedAt);
  const requestsAfterOpen = firstOpen < 0 ? Number.NaN : upstream.requests - (seen[firstOpen] ?? 0);
  const refused = results.filter((r) => r.result.error?.class === "breaker_open");
  upstream.faults = faults;
  const perCall = (upstream.requests - before) / o.outageCalls;
  const perCallAfterOpen = requestsAfterOpen / Math.max(1, afterOpen.length);
  return {
    calls: o.outageCalls,
    classes: countBy(results, (r) => r.result.error?.class ?? r.result.status),
    breakerOpenedAfterMs: round(openedAt - started),
    upstreamRequestsPerCall: round(perCall, 2),
    upstreamRequestsPerCallAfterOpening: round(perCallAfterOpen, 3),
    medianMs: round(median(results.map((r) => r.ms))),
    medianMsRefused: round(median(refused.map((r) => r.ms))),
    target:
      "breaker opens; < 1.6 upstream requests per call; refusals fail fast (median < 50 ms) as breaker_open",
    pass: firstOpen >= 0 && perCall < 1.6 && median(refused.map((r) => r.ms)) < 50,
  };
}

async function recovery(service: Service, upstream: FlakyUpstream) {
  upstream.failRate = 0;
  const started = performance.now();
  let recoveredMs = Number.NaN;
  let tries = 0;
  while (performance.now() - started < 60_000) {
    tries++;
    const timed = await execute(service, `h${tries}`, "flaky_read", { i: tries });
    if (timed.result.status === "completed") {
      recoveredMs = timed.at - started;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const after = await drive(20, 4, (i) => execute(service, `a${i}`, "flaky_read", { i }));
  const completedAfter = after.filter((r) => r.result.status === "completed").length;
  return {
    recoveredAfterMs: round(recoveredMs),
    tries,
    completedOfNext20: completedAfter,
    target: "calls complete again within 60 s, through half-open",
    pass: recoveredMs < 60_000 && completedAfter === 20,
  };
}

export async function soakService(o: SoakOptions) {
  const upstream = await startFlakyUpstream();
  const catalog = await writeCatalog(flakyTools(upstream.url));
  const service = await startService({ catalog, env: { SWITCHBOARD_RATE_LIMIT: "1000000" } });
  try {
    const reads = await readsUnderFaults(service, upstream, o);
    const writes = await writesUnderFaults(service, upstream, o);
    const down = await outage(service, upstream, o);
    const back = await recovery(service, upstream);
    const breakers = (await request(service, "GET", "/v1/breakers")).body;
    return {
      pass: reads.pass && writes.pass && down.pass && back.pass,
      reads,
      writes,
      outage: down,
      recovery: back,
      breakers,
    };
  } finally {
    await service.stop();
    await upstream.close();
  }
}
