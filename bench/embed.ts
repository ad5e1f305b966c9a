// `npm run bench:embed`: the embedder's speed, native (onnxruntime-node) against tfjs WebAssembly, and the
// index build of a generated 10,000-tool catalog. Prints one JSON object; ratios compare figures of this run.
//
// Every text is new to the embedder (its cache never answers). "single" is one query at a time, as a route
// with no other traffic sees it; "batched" is large calls spread over all workers, as an index build sees
// it. tfjs runs with today's worker count before the native path (half the cores), so "nativeOverTfjs"
// is the gain of the change as shipped. CPU seconds are the process's (workers included): on a shared
// machine they say what the work costs even when the wall clock says how busy the machine was.
//
//   npm run bench:embed                 # BENCH_INDEX_TOOLS=10000 by default
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "../src/catalog/index.ts";
import { createEmbedder, type Embedder, type EmbedderKind } from "../src/embed/index.ts";
import { percentile } from "../src/router/metrics.ts";
import { Router } from "../src/router/router.ts";
import { FileStore } from "../src/store/index.ts";
import { generate } from "../test/router/fixtures/generate-api-catalog.ts";

const SINGLE_QUERIES = 60;
const BATCHED_TEXTS = 1024;
const INDEX_TOOLS = Number(process.env.BENCH_INDEX_TOOLS ?? 10_000);

let serial = 0;
/** Distinct, query-like texts so that the embedder's cache never answers. */
function texts(count: number): string[] {
  return Array.from({ length: count }, () => {
    serial++;
    return `find the tool that handles request ${serial} about invoices, weather or calendar entry ${serial * 7}`;
  });
}

const round = (value: number, places = 2): number => Number(value.toFixed(places));

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

async function measure(embedder: Embedder) {
  await embedder.embed(texts(64)); // warm-up: first calls compile kernels and fill the allocators
  const single: number[] = [];
  for (const text of texts(SINGLE_QUERIES)) {
    const start = performance.now();
    await embedder.embed([text]);
    single.push(performance.now() - start);
  }
  single.sort((a, b) => a - b);
  const batch = texts(BATCHED_TEXTS);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const vectors = await embedder.embed(batch);
  const seconds = (performance.now() - start) / 1000;
  return {
    summary: {
      runtime: embedder.runtime,
      single: {
        count: SINGLE_QUERIES,
        p50Ms: round(percentile(single, 0.5)),
        p99Ms: round(percentile(single, 0.99)),
      },
      batched: {
        texts: BATCHED_TEXTS,
        textsPerSecond: round(BATCHED_TEXTS / seconds, 0),
        textsPerCpuSecond: round(BATCHED_TEXTS / cpuSeconds(cpu), 0),
      },
    },
    batch,
    vectors,
  };
}

async function run(kind: EmbedderKind, workers: number) {
  const embedder = await createEmbedder({ kind, workers });
  try {
    return { workers, ...(await measure(embedder)) };
  } finally {
    await embedder.close();
  }
}

/** Gateways in front of several APIs alike: the generator's operations, once per product, with distinct texts. */
const PRODUCTS = [
  "Acme Cloud",
  "Borealis CRM",
  "Cobalt Tracker",
  "Dune Storage",
  "Ember Mail",
  "Fjord Billing",
];

function generatedCatalog(count: number): Tool[] {
  const operations = generate(Number.MAX_SAFE_INTEGER, 0).tools;
  const tools: Tool[] = [];
  for (const product of PRODUCTS)
    for (const { name, description, inputSchema } of operations) {
      if (tools.length === count) return tools;
      const prefix = product.toLowerCase().replace(/\W+/g, "_");
      tools.push({
        name: `${prefix}_${name}`,
        description: `${description} (${product})`,
        inputSchema,
      } as Tool);
    }
  return tools;
}

/** Builds the index of a generated catalog from nothing, with the native embedder as the service runs it. */
async function indexBuild() {
  const tools = generatedCatalog(INDEX_TOOLS);
  const folder = await mkdtemp(join(tmpdir(), "sb-bench-embed-"));
  const embedder = await createEmbedder({ kind: "use-lite" });
  try {
    const cpu = process.cpuUsage();
    const mainCpu = process.threadCpuUsage();
    const start = performance.now();
    const router = await Router.open({ tools, store: new FileStore(folder), embedder });
    const seconds = (performance.now() - start) / 1000;
    const main = process.threadCpuUsage(mainCpu);
    const cpuUsed = cpuSeconds(cpu);
    await router.close();
    return {
      tools: tools.length,
      textsEmbedded: router.report.embedded,
      seconds: round(seconds, 1),
      toolsPerSecond: round(tools.length / seconds, 0),
      // On a shared machine: the CPU the build used (workers included) and the event loop's part of it.
      // On an idle machine of `cores` cores the build takes at least cpuSeconds / cores.
      cpuSeconds: round(cpuUsed, 1),
      eventLoopCpuSeconds: round((main.user + main.system) / 1e6, 1),
    };
  } finally {
    await embedder.close();
    await rm(folder, { recursive: true, force: true });
  }
}

function lowestCosine(a: Float32Array[], b: Float32Array[]): number {
  let lowest = 1;
  a.forEach((vector, index) => {
    let sum = 0;
    const other = b[index] as Float32Array;
    for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) * (other[i] as number);
    lowest = Math.min(lowest, sum);
  });
  return round(lowest, 6);
}

const cores = availableParallelism();
const loadBefore = loadavg()[0] ?? 0;
const tfjs = await run("use-lite-tfjs", Math.max(1, Math.floor(cores / 2)));
serial -= BATCHED_TEXTS + SINGLE_QUERIES + 64; // the same texts again, for the parity check
const native = await run("use-lite", cores);
const build = await indexBuild();
console.log(
  JSON.stringify(
    {
      benchmark: "embed",
      machine: {
        cpus: cores,
        loadAverage1mBefore: round(loadBefore),
        loadAverage1mAfter: round(loadavg()[0] ?? 0),
      },
      native: { workers: native.workers, ...native.summary },
      tfjs: { workers: tfjs.workers, ...tfjs.summary },
      nativeOverTfjs: {
        batched: round(native.summary.batched.textsPerSecond / tfjs.summary.batched.textsPerSecond, 1),
        singleP50: round(tfjs.summary.single.p50Ms / native.summary.single.p50Ms, 1),
      },
      lowestCosineNativeVsTfjs: lowestCosine(native.vectors, tfjs.vectors),
      indexBuild: build,
      targets: {
        batchedAtLeast10xTfjs:
          native.summary.batched.textsPerSecond >= 10 * tfjs.summary.batched.textsPerSecond,
        singleP50AtMost3ms: native.summary.single.p50Ms <= 3,
        indexBuildAtMost20s: build.seconds <= 20,
      },
    },
    null,
    2,
  ),
);
