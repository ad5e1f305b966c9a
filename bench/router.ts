// `npm run bench`: the router's speed, as JSON on stdout. Ratios compare figures measured in this same run.
//
// Part 1 uses the real use-lite embedder on the bundled catalog: warm route vs the embedder's own
// single-query time, index build vs the embedder's raw batched throughput, 64 concurrent routes vs 64 in
// a row. Part 2 needs 100k tools, far too many to embed here, so it uses a stand-in embedder built for this
// benchmark (clustered pseudo-random unit vectors seeded by the text) with API-style tool texts. Every
// query text is new to the embedder, whose cache would otherwise flatter the timings: HNSW
// recall@10 against exact search with the shipped defaults, everything after the embedding (BM25 runs while
// the embedder works, so it is timed on its own, and the sum of both), resident memory, BM25 against
// minisearch, and adding one tool to a 10k index.
//
//   npm run bench                      # 100k tools
//   BENCH_TOOLS=20000 npm run bench    # a smaller scale when the machine is busy
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { NATIVE_MARKER } from "../scripts/build-hnswlib-native.ts";
import { loadCatalog, type Tool } from "../src/catalog/index.ts";
import { BUNDLED_CATALOG } from "../src/config/index.ts";
import { createEmbedder } from "../src/embed/index.ts";
import { DEFAULT_HNSW } from "../src/router/dense.ts";
import { LexicalIndex } from "../src/router/lexical.ts";
import { percentile } from "../src/router/metrics.ts";
import { Router, type RouterEmbedder } from "../src/router/router.ts";
import { mainText, nameWords } from "../src/router/text.ts";
import { FileStore } from "../src/store/index.ts";
import { generate } from "../test/router/fixtures/generate-api-catalog.ts";

const SCALE = Number(process.env.BENCH_TOOLS ?? 100_000);
const SMALL = 10_000;
const folders: string[] = [];

async function freshStore(): Promise<FileStore> {
  const folder = await mkdtemp(join(tmpdir(), "sb-bench-router-"));
  folders.push(folder);
  return new FileStore(folder);
}

function p50(samples: number[]): number {
  return round(
    percentile(
      [...samples].sort((a, b) => a - b),
      0.5,
    ),
  );
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

// ---- Part 1: the real embedder --------------------------------------------------------------------------
async function realEmbedder() {
  const embedder = await createEmbedder({ kind: "use-lite" });
  const tools = await loadCatalog(BUNDLED_CATALOG);
  const queries = (await readFile(join(BUNDLED_CATALOG, "eval", "queries.jsonl"), "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l).query as string);
  await embedder.embed(queries.slice(0, 5));

  const [buildMs, router] = await time(async () =>
    Router.open({ tools, store: await freshStore(), embedder }),
  );
  // The embedder alone and a whole route, alternately, each on a query it has not seen: the embedder's
  // speed drifts with the machine's load (10-28 ms per query here in one afternoon), and alternating puts
  // the same drift on both sides of the ratio.
  const embedTimes: number[] = [];
  const routeTimes: number[] = [];
  for (let i = 5; i < 85; i += 2) {
    embedTimes.push((await time(() => embedder.embed([queries[i] as string])))[0]);
    routeTimes.push((await time(() => router.route(queries[i + 1] as string, { topK: 5 })))[0]);
  }

  // Raw batched throughput on the texts the build embeds.
  const api = generate(512, 0).tools;
  const texts = api.map((t) => mainText(t as Tool));
  const [rawMs] = await time(async () => {
    for (let i = 0; i < texts.length; i += 64) await embedder.embed(texts.slice(i, i + 64));
  });
  const [apiBuildMs, apiRouter] = await time(async () =>
    Router.open({
      tools: api.map((t) => ({ ...t, name: `b_${t.name}` }) as Tool),
      store: await freshStore(),
      embedder,
    }),
  );
  const built = apiRouter.report.embedded;

  // 64 routes one after another, then the same number at once, three times over with new texts each time
  // (the embedder caches): the median of the three ratios.
  const batch = queries.slice(85, 149);
  const rounds: { sequentialMs: number; concurrentMs: number }[] = [];
  for (const [first, second] of [
    ["please", "now"],
    ["today", "quickly"],
    ["for me", "right away"],
  ]) {
    const [sequentialMs] = await time(async () => {
      for (const q of batch) await router.route(`${q} ${first}`, { topK: 5 });
    });
    const [concurrentMs] = await time(() =>
      Promise.all(batch.map((q) => router.route(`${q} ${second}`, { topK: 5 }))),
    );
    rounds.push({ sequentialMs, concurrentMs });
  }
  rounds.sort((a, b) => a.sequentialMs / a.concurrentMs - b.sequentialMs / b.concurrentMs);
  const { sequentialMs, concurrentMs } = rounds[1] as { sequentialMs: number; concurrentMs: number };
  await router.close();
  await apiRouter.close();
  await embedder.close();

  const embedP50 = p50(embedTimes);
  const routeP50 = p50(routeTimes);
  return {
    embedder: embedder.id,
    bundledCatalog: { tools: tools.length, buildMs: Math.round(buildMs) },
    embedSingleP50Ms: embedP50,
    routeWarmP50Ms: routeP50,
    routeOverEmbedRatio: round(routeP50 / embedP50),
    rawBatchedTextsPerSec: round((texts.length / rawMs) * 1000),
    buildTextsPerSec: round((built / apiBuildMs) * 1000),
    buildOverRawRatio: round(built / apiBuildMs / (texts.length / rawMs)),
    sequential64Ms: Math.round(sequentialMs),
    concurrent64Ms: Math.round(concurrentMs),
    concurrentSpeedup: round(sequentialMs / concurrentMs),
  };
}

// ---- Part 2: scale, with a stand-in embedder --------------------------------------------------------------
const DIMENSION = 512;
const CLUSTERS = 1000;

/** Stand-in embedder: a text's vector is a cluster centre plus noise, both seeded by the text's hash. */
function clusteredEmbedder(): RouterEmbedder {
  const centres = Array.from({ length: CLUSTERS }, (_, c) => gaussian(DIMENSION, c + 1));
  return {
    id: "bench-clustered@1",
    dimension: DIMENSION,
    async embed(texts) {
      return texts.map((text) => {
        const seed = createHash("md5").update(text).digest().readUInt32LE(0);
        const centre = centres[seed % CLUSTERS] as Float32Array;
        const noise = gaussian(DIMENSION, seed);
        const v = new Float32Array(DIMENSION);
        for (let i = 0; i < DIMENSION; i++) v[i] = (centre[i] as number) + (noise[i] as number);
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
  };
}

function gaussian(n: number, seed: number): Float32Array {
  let s = seed >>> 0 || 1;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s + 1) / 4294967297;
  };
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
  return out;
}

const SERVICES = [
  "github",
  "gitlab",
  "stripe",
  "shopify",
  "slack",
  "jira",
  "zendesk",
  "hubspot",
  "aws",
  "gcp",
  "azure",
  "notion",
  "asana",
  "trello",
  "twilio",
  "sendgrid",
  "okta",
  "datadog",
  "pagerduty",
  "vercel",
  "netlify",
  "cloudflare",
  "salesforce",
  "intercom",
  "linear",
];

function scaleTools(count: number): Tool[] {
  const base = generate(4000, 0).tools;
  const out: Tool[] = [];
  for (let i = 0; out.length < count; i++) {
    const service = SERVICES[Math.floor(i / base.length) % SERVICES.length] as string;
    const round = Math.floor(i / (base.length * SERVICES.length));
    const t = base[i % base.length] as Tool;
    const name = `${service}${t.name[0]?.toUpperCase()}${t.name.slice(1)}${round ? round : ""}`;
    out.push({ ...t, name, description: `${service}: ${t.description}`, category: service });
  }
  return out;
}

async function scale() {
  const embedder = clusteredEmbedder();
  const tools = scaleTools(SCALE);
  const rssBefore = process.memoryUsage().rss;
  const [buildMs, router] = await time(async () =>
    Router.open({ tools, store: await freshStore(), embedder }),
  );
  const rssAfter = process.memoryUsage().rss;

  const queryTexts = generate(4000, 200, 11).queries.map((q) => `github ${q.query}`);
  const queryVectors = await embedder.embed(queryTexts);
  // Measured warm, as a running service routes: other queries first, so the code is compiled and the index
  // paged in. Every measured query is still new.
  const warmTexts = generate(4000, 200, 12).queries.map((q) => `gitlab ${q.query}`);
  const warmVectors = await embedder.embed(warmTexts);
  for (const [i, text] of warmTexts.entries())
    router.rank(text, warmVectors[i] as Float32Array, 5, {}, [], router.searchLexical(text));
  // A route runs BM25 while the embedder works (Router.route); what is left after the embedding is HNSW,
  // the exact scores, tiers, fusion and the threshold. Both halves are reported, and their sum.
  const lexicalTimes: number[] = [];
  const rankTimes: number[] = [];
  const searchTimes: number[] = [];
  queryTexts.forEach((text, i) => {
    const started = performance.now();
    const lexical = router.searchLexical(text);
    const embedded = performance.now();
    router.rank(text, queryVectors[i] as Float32Array, 5, {}, [], lexical);
    const ended = performance.now();
    lexicalTimes.push(embedded - started);
    rankTimes.push(ended - embedded);
    searchTimes.push(ended - started);
  });

  // Recall of the HNSW graph with the shipped ef against exact search over the same vectors.
  // biome-ignore lint/complexity/useLiteralKeys: the benchmark reads the router's private index on purpose
  const index = router["index"];
  // biome-ignore lint/complexity/useLiteralKeys: as above
  const dense = index["dense"];
  const store = index.vectors;
  const labels = [...store.labels()];
  let found = 0;
  const recallQueries = queryVectors.slice(0, 50);
  for (const q of recallQueries) {
    const approx = new Set(dense.search(q, 10).map((h) => h.label));
    store.query(q);
    const exact = labels
      .map((label) => ({ label, s: store.similarity(label) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10);
    found += exact.filter((e) => approx.has(e.label)).length;
  }

  // BM25 as written here (search and its best 32) against minisearch (BM25+, every match ranked) on the same
  // texts.
  const lexical = new LexicalIndex();
  for (const t of tools) lexical.upsert(t);
  const mini = new MiniSearch({ fields: ["name", "description"], storeFields: [] });
  mini.addAll(tools.map((t, id) => ({ id, name: nameWords(t.name).join(" "), description: t.description })));
  const ownTimes: number[] = [];
  const miniTimes: number[] = [];
  // Separate loops: a minisearch search takes hundreds of milliseconds and leaves the caches cold for
  // whatever runs next, which tripled BM25's time here when the two alternated.
  // A search is lazy until its top is asked for; a route asks for the best 32 (candidates.ts).
  for (const text of queryTexts) ownTimes.push((await time(() => lexical.search(text).top(32)))[0]);
  for (const text of queryTexts) miniTimes.push((await time(() => mini.search(text)))[0]);
  await router.close();

  // Adding one tool to a 10k index, beyond its embedding (the stand-in embeds in microseconds).
  const small = await Router.open({ tools: tools.slice(0, SMALL), store: await freshStore(), embedder });
  const addTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const tool = { ...(tools[SMALL + i] ?? tools[i]), name: `added_${i}` } as Tool;
    addTimes.push((await time(() => small.upsert(tool)))[0]);
  }
  await small.close();

  return {
    tools: SCALE,
    hnsw: DEFAULT_HNSW,
    /** Whether postinstall could rebuild hnswlib-node for this CPU (scripts/build-hnswlib-native.ts). */
    hnswlibBuild: existsSync(NATIVE_MARKER) ? "native-cpu" : "portable",
    buildMs: Math.round(buildMs),
    residentMB: Math.round(rssAfter / 1e6),
    indexGrowthMB: Math.round((rssAfter - rssBefore) / 1e6),
    afterEmbeddingP50Ms: p50(rankTimes),
    lexicalDuringEmbeddingP50Ms: p50(lexicalTimes),
    searchWithoutEmbeddingP50Ms: p50(searchTimes),
    hnswRecallAt10: round(found / (recallQueries.length * 10)),
    bm25P50Ms: p50(ownTimes),
    minisearchP50Ms: p50(miniTimes),
    addOneToolTo10kP50Ms: p50(addTimes),
  };
}

try {
  const real = await realEmbedder();
  const synthetic = await scale();
  process.stdout.write(`${JSON.stringify({ real, scale: synthetic }, null, 2)}\n`);
} finally {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
}
