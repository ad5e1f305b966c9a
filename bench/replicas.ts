// npm run bench:replicas [-- --requests 2000]
// Route latency of a replica on the embedded data folder and of one on the shared stores (PostgreSQL and
// Redis from scripts/services.ts), both on the bundled catalog, in one run: requests alternate between
// the two, one at a time over keep-alive, so the machine's load falls on both alike. Prints JSON.
import { rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { down, missingBinaries, up } from "../scripts/services.ts";
import { type Service, startService, tempDir } from "../test/server/harness.ts";
import { ROUTE_QUERIES } from "./route-queries.ts";

const { values } = parseArgs({ options: { requests: { type: "string", default: "2000" } } });
const requests = Number(values.requests);
if (!Number.isInteger(requests) || requests <= 0)
  throw new Error("--requests must be a positive whole number");
const missing = missingBinaries();
if (missing) throw new Error(missing);

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

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { n: sorted.length, p50Ms: round(at(0.5)), p99Ms: round(at(0.99)) };
};

try {
  // One after the other: each embeds the bundled catalog on first start, which takes the machine's cores.
  const local = await startService({ env: quiet });
  started.push(local);
  const shared = await startService({
    env: { ...quiet, SWITCHBOARD_DATABASE_URL: urls.databaseUrl, SWITCHBOARD_REDIS_URL: urls.redisUrl },
  });
  started.push(shared);
  // Warm-up: each query once through each replica (the embedder caches recent queries in both).
  for (const query of ROUTE_QUERIES) {
    await route(local.url, query);
    await route(shared.url, query);
  }
  const timings = { local: [] as number[], shared: [] as number[] };
  for (let i = 0; i < requests; i++) {
    const query = `${ROUTE_QUERIES[i % ROUTE_QUERIES.length]} ${i}`;
    // Alternating which goes first, so neither always follows the other's work.
    if (i % 2 === 0) {
      timings.local.push(await route(local.url, query));
      timings.shared.push(await route(shared.url, query));
    } else {
      timings.shared.push(await route(shared.url, query));
      timings.local.push(await route(local.url, query));
    }
  }
  const l = summary(timings.local);
  const s = summary(timings.shared);
  process.stdout.write(
    `${JSON.stringify(
      {
        requests,
        loadAverage: loadavg()[0],
        local: l,
        shared: s,
        difference: {
          p50Percent: Math.round(((s.p50Ms - l.p50Ms) / l.p50Ms) * 1000) / 10,
          p99Percent: Math.round(((s.p99Ms - l.p99Ms) / l.p99Ms) * 1000) / 10,
        },
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
