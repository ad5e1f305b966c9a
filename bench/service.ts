// npm run bench:service [-- --duration 120 --tool NAME --args JSON]
// Starts the real service (bundled catalog, temporary data folder) and drives /v1/route and /v1/execute
// with autocannon at 32 connections, each for --duration seconds after a short warm-up. Prints JSON:
// throughput, p50, p99, errors, and resident memory after warm-up and after the run.
// First, uncached routes: every query distinct (the bundled eval queries, each with its own request number),
// so each one is embedded, for --uncached-duration seconds after a warm-up; against the embedder's batched
// rate measured in this run just before the service starts, with the worker count the service uses. That
// phase is driven by a lean load generator (http-load.ts) that takes less of the shared cores; it prints its
// own CPU per route.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createEmbedder } from "../src/embed/index.ts";
import { postLoad } from "./http-load.ts";
import { ROUTE_QUERIES } from "./route-queries.ts";

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Cannon = (options: object) => Promise<CannonResult>;
// autocannon ships no types; required through CommonJS and typed by the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as Cannon;

const CONNECTIONS = 32;
const WARMUP_SECONDS = 5;
const SAMPLE_EVERY_MS = 10_000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "120" },
    "uncached-duration": { type: "string", default: "30" },
    tool: { type: "string", default: "calculate" },
    args: { type: "string", default: '{"expression":"(17 + 25) * 3 / 2"}' },
  },
});
const duration = Number(values.duration);
if (!Number.isFinite(duration) || duration <= 0)
  throw new Error("--duration must be a positive number of seconds");
const toolArgs = JSON.parse(values.args) as Record<string, unknown>;
const uncachedDuration = Number(values["uncached-duration"]);
if (!Number.isFinite(uncachedDuration) || uncachedDuration <= 0)
  throw new Error("--uncached-duration must be a positive number of seconds");

/** Queries that never repeat: the bundled eval queries in turn, each with a request number of its own. */
async function distinctQueries(): Promise<() => string> {
  const lines = (await readFile(join(ROOT, "catalog/eval/queries.jsonl"), "utf8")).trim().split("\n");
  const queries = lines.map((line) => (JSON.parse(line) as { query: string }).query);
  let serial = 0;
  return () => {
    serial++;
    return `${queries[serial % queries.length]} (request ${serial})`;
  };
}

/** Texts per second of the service's embedder on large calls, its workers all busy. */
async function embedderBatchedRate(): Promise<{ runtime: string; workers: number; textsPerSecond: number }> {
  const next = await distinctQueries();
  const embedder = await createEmbedder({ kind: "use-lite" });
  try {
    // Warmed as a service's workers are after their first few hundred routes (V8 and ONNX Runtime both
    // speed up over the first batches), and measured over a few seconds, so that a moment of other load on
    // the machine moves the rate less.
    await embedder.embed(Array.from({ length: 512 }, () => `warm-up ${next()}`));
    const texts = Array.from({ length: 3072 }, () => `batched ${next()}`);
    const start = performance.now();
    await embedder.embed(texts);
    const textsPerSecond = Math.round(texts.length / ((performance.now() - start) / 1000));
    return { runtime: embedder.runtime, workers: availableParallelism(), textsPerSecond };
  } finally {
    await embedder.close();
  }
}

async function startService(data: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin/switchboard.js"), "serve", "--port", "0", "--data", data],
    {
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_RATE_LIMIT: "1000000000", SWITCHBOARD_LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error("the service exited before listening")));
  });
  for (;;) {
    const ready = await fetch(`${url}/readyz`).catch(() => undefined);
    if (ready?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

interface Memory {
  rssMb: number;
  heapUsedMb: number;
}

/** Resident memory (the process, worker threads included) and the main thread's used heap, from /metrics. */
async function memory(url: string): Promise<Memory> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => {
    const match = new RegExp(`^switchboard_${name} (\\d+(?:\\.\\d+)?)`, "m").exec(text);
    if (!match?.[1]) throw new Error(`no ${name} in /metrics`);
    return Number((Number(match[1]) / 2 ** 20).toFixed(1));
  };
  return { rssMb: read("process_resident_memory_bytes"), heapUsedMb: read("nodejs_heap_size_used_bytes") };
}

function requestsFor(path: string): object[] {
  if (path === "/v1/route")
    return ROUTE_QUERIES.map((query) => ({ method: "POST", path, body: JSON.stringify({ query, topK: 5 }) }));
  return [
    {
      method: "POST",
      path,
      body: JSON.stringify({ calls: [{ id: "bench", name: values.tool, arguments: toolArgs }] }),
    },
  ];
}

async function load(url: string, path: string, seconds: number): Promise<CannonResult> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { "content-type": "application/json" },
    requests: requestsFor(path),
  });
}

function summary(result: CannonResult) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    p99OverP50: Number((result.latency.p99 / Math.max(result.latency.p50, 1)).toFixed(2)),
  };
}

const embedderRate = await embedderBatchedRate();
const data = await mkdtemp(join(tmpdir(), "switchboard-bench-"));
const service = await startService(data);
try {
  const probe = await fetch(`${service.url}/v1/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ calls: [{ id: "probe", name: values.tool, arguments: toolArgs }] }),
  });
  const probeBody = (await probe.json()) as { results?: { status: string }[] };
  if (probeBody.results?.[0]?.status !== "completed")
    throw new Error(`the execute probe did not complete: ${JSON.stringify(probeBody)}`);
  // Latency tails depend on what else the machine runs: the load average puts the figures in context.
  const loadBefore = loadavg()[0] ?? 0;
  const nextQuery = await distinctQueries();
  const uncachedLoad = (seconds: number) =>
    postLoad({
      url: service.url,
      path: "/v1/route",
      connections: CONNECTIONS,
      seconds,
      body: () => JSON.stringify({ query: `uncached ${nextQuery()}`, topK: 5 }),
    });
  // Warmed as the embedder above was (V8 tiers the route path up, the workers speed up over their first
  // batches), with queries of their own; then measured.
  await uncachedLoad(WARMUP_SECONDS);
  const loadGeneratorStart = process.cpuUsage();
  const uncachedResult = await uncachedLoad(uncachedDuration);
  const loadGeneratorCpu = process.cpuUsage(loadGeneratorStart);
  const uncached = {
    ...summary(uncachedResult),
    loadGeneratorCpuUsPerRoute: Math.round(
      (loadGeneratorCpu.user + loadGeneratorCpu.system) / Math.max(1, uncachedResult.requests.total),
    ),
  };
  const atStart = await memory(service.url);
  await load(service.url, "/v1/route", WARMUP_SECONDS);
  await load(service.url, "/v1/execute", WARMUP_SECONDS);
  const afterWarmup = await memory(service.url);
  // A series, not two points: "flat after warm-up" shows as a plateau, a leak as a steady climb.
  const samples: Memory[] = [];
  const sampler = setInterval(() => {
    void memory(service.url).then((m) => samples.push(m));
  }, SAMPLE_EVERY_MS);
  const route = summary(await load(service.url, "/v1/route", duration));
  const execute = summary(await load(service.url, "/v1/execute", duration));
  clearInterval(sampler);
  const afterRun = await memory(service.url);
  process.stdout.write(
    `${JSON.stringify(
      {
        benchmark: "service",
        machine: {
          cpus: availableParallelism(),
          loadAverage1mBefore: Number(loadBefore.toFixed(2)),
          loadAverage1mAfter: Number((loadavg()[0] ?? 0).toFixed(2)),
        },
        connections: CONNECTIONS,
        embedder: embedderRate,
        uncachedRoute: {
          durationSeconds: uncachedDuration,
          ...uncached,
          overEmbedderBatchedRate: Number(
            (uncached.requestsPerSecond / embedderRate.textsPerSecond).toFixed(2),
          ),
        },
        durationSecondsPerEndpoint: duration,
        executeTool: values.tool,
        route,
        execute,
        memory: {
          atStart,
          afterWarmup,
          afterRun,
          rssGrowthAfterWarmup: Number((afterRun.rssMb / afterWarmup.rssMb).toFixed(3)),
          samplesEvery10s: samples,
        },
        targets: {
          zeroErrors: route.errors === 0 && execute.errors === 0,
          p99Within3xP50: route.p99OverP50 <= 3 && execute.p99OverP50 <= 3,
          uncachedRouteAtLeast08xEmbedder: uncached.requestsPerSecond >= 0.8 * embedderRate.textsPerSecond,
          uncachedRouteP99Within3xP50: uncached.p99OverP50 <= 3,
        },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await service.stop();
  await rm(data, { recursive: true, force: true });
}
