// npm run bench:replicas [-- --requests 2000] [-- --pairs 2]
// Route latency of replicas on the embedded data folder ("local") and of replicas on the shared stores
// (PostgreSQL and Redis from scripts/services.ts), all on the bundled catalog, in one run. Prints JSON.
//
// Fair by construction: every replica gets the same warm-up and the same queries; requests go one at a time
// over keep-alive, each query to every replica in a shuffled order (so none always follows another's
// work), so the machine's load falls on all alike. Two processes of one build differ by several percent
// on a loaded machine (JIT, memory layout, the scheduler), so each side is `--pairs` processes and its
// figures pool them; the difference between the two local processes (`noise`) is what that alone does
// to the figures in this run, the yardstick for local/shared. p99 is also given per quarter of the run.
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { down, missingBinaries, up } from "../scripts/services.ts";
import { type Service, startService, tempDir } from "../test/server/harness.ts";
import { ROUTE_QUERIES } from "./route-queries.ts";

const { values } = parseArgs({
  options: { requests: { type: "string", default: "2000" }, pairs: { type: "string", default: "2" } },
});
const requests = Number(values.requests);
const pairs = Number(values.pairs);
if (!Number.isInteger(requests) || requests < 4)
  throw new Error("--requests must be a whole number of at least 4");
if (!Number.isInteger(pairs) || pairs < 1 || pairs > 4) throw new Error("--pairs must be 1 to 4");
const missing = missingBinaries();
if (missing) throw new Error(missing);
const WARMUP = 200;
const QUARTERS = 4;

const folder = await tempDir("bench-services");
const urls = await up(folder);
const quiet = { SWITCHBOARD_LOG_LEVEL: "warn", SWITCHBOARD_RATE_LIMIT: "1000000000" };
const started: Service[] = [];

async function route(url: string, query: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/route`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, topK: 3 }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`route answered ${response.status}`);
  return performance.now() - started;
}

/** Mulberry32: a seeded generator, so every run shuffles alike. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);
/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

/** `runs` holds one array of timings per process, in request order. */
function summary(runs: number[][]) {
  const size = Math.floor(requests / QUARTERS);
  const quarters = Array.from({ length: QUARTERS }, (_, i) =>
    ascending(runs.flatMap((timings) => timings.slice(i * size, (i + 1) * size))),
  );
  const all = ascending(runs.flat());
  return {
    n: all.length,
    p50Ms: round(percentile(all, 0.5)),
    p99Ms: round(percentile(all, 0.99)),
    p99MsByQuarter: quarters.map((q) => round(percentile(q, 0.99))),
  };
}

type Summary = ReturnType<typeof summary>;
const percent = (to: number, from: number) => Math.round(((to - from) / from) * 1000) / 10;
const difference = (to: Summary, from: Summary) => ({
  p50Percent: percent(to.p50Ms, from.p50Ms),
  p99Percent: percent(to.p99Ms, from.p99Ms),
  p99PercentByQuarter: to.p99MsByQuarter.map((p99, i) => percent(p99, from.p99MsByQuarter[i] as number)),
});

try {
  const loadAtStart = loadavg()[0];
  const replicas: { side: "local" | "shared"; service: Service; timings: number[] }[] = [];
  const shared = { SWITCHBOARD_DATABASE_URL: urls.databaseUrl, SWITCHBOARD_REDIS_URL: urls.redisUrl };
  // One after the other: a first start embeds what the shipped index lacks, which takes the machine's cores.
  for (let i = 0; i < pairs; i++)
    for (const side of ["local", "shared"] as const) {
      const service = await startService({ env: { ...quiet, ...(side === "shared" ? shared : {}) } });
      started.push(service);
      replicas.push({ side, service, timings: [] });
    }

  const random = seeded(18);
  const send = async (query: string, record: boolean) => {
    const order = [...replicas];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as (typeof order)[number], order[i] as (typeof order)[number]];
    }
    for (const replica of order) {
      const ms = await route(replica.service.url, query);
      if (record) replica.timings.push(ms);
    }
  };
  // Warm-up, not recorded: the JIT, the connections and the embedder's workers settle in every replica.
  for (let i = 0; i < WARMUP; i++) await send(`${ROUTE_QUERIES[i % ROUTE_QUERIES.length]} warm ${i}`, false);
  // Each query text is new (the embedder caches recent queries), and the same for every replica.
  for (let i = 0; i < requests; i++) await send(`${ROUTE_QUERIES[i % ROUTE_QUERIES.length]} ${i}`, true);

  const of = (side: "local" | "shared") =>
    replicas.filter((replica) => replica.side === side).map((replica) => replica.timings);
  const local = summary(of("local"));
  const sharedSide = summary(of("shared"));
  const [firstLocal, secondLocal] = of("local").map((timings) => summary([timings]));
  process.stdout.write(
    `${JSON.stringify(
      {
        requests,
        pairs,
        loadAverage: { start: loadAtStart, end: loadavg()[0] },
        local,
        shared: sharedSide,
        difference: difference(sharedSide, local),
        perReplica: replicas.map(({ side, timings }) => {
          const sorted = ascending(timings);
          return { side, p50Ms: round(percentile(sorted, 0.5)), p99Ms: round(percentile(sorted, 0.99)) };
        }),
        ...(firstLocal && secondLocal ? { noise: difference(secondLocal, firstLocal) } : {}),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await Promise.all(started.map((service) => service.stop()));
  await down(folder);
  await rm(folder, { recursive: true, force: true });
  for (const service of started) await rm(service.data, { recursive: true, force: true });
}
