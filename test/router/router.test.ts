// The router against the real use-lite embedder and the real HNSW index, on a small catalog: incremental
// changes, persistence and recovery, threshold behaviour, feedback and bad input.
import assert from "node:assert/strict";
import { readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Tool } from "../../src/catalog/index.ts";
import { createEmbedder, type Embedder } from "../../src/embed/index.ts";
import { Router, RouterError } from "../../src/router/index.ts";
import { LexicalIndex } from "../../src/router/lexical.ts";
import { SubwordIndex, trigrams } from "../../src/router/subword.ts";
import { ownText } from "../../src/router/text.ts";
import { FileStore } from "../../src/store/index.ts";

const catalog: Tool[] = JSON.parse(
  await readFile(new URL("./fixtures/small-catalog.json", import.meta.url), "utf8"),
);
let embedder: Embedder;
const folders: string[] = [];

function freshStore(): FileStore {
  const folder = join(tmpdir(), `sb-router-${process.pid}-${folders.length}-${Date.now()}`);
  folders.push(folder);
  return new FileStore(folder);
}

before(async () => {
  embedder = await createEmbedder({ kind: "use-lite" });
});
after(async () => {
  await embedder.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

test("routes a query to the fitting tool and explains the score", async () => {
  const router = await Router.open({ tools: catalog, store: freshStore(), embedder });
  assert.equal(router.report.action, "built");
  const result = await router.route("how much is 20 dollars in euros", { topK: 3 });
  assert.equal(result.tools[0]?.name, "convert_currency");
  assert.equal(result.tools.length, 3);
  const why = result.tools[0]?.why;
  assert.ok(why && why.dense > 0 && why.lexical >= 0 && why.fused > 0);
  assert.equal(why?.category, "finance");
  await router.close();
});

test("upsert and remove change the index in place, and a reopen embeds nothing again", async () => {
  const store = freshStore();
  const router = await Router.open({ tools: catalog, store, embedder });
  await router.upsert({
    name: "track_parcel",
    description: "Track a parcel shipment by its tracking number.",
    inputSchema: { type: "object" },
    category: "shop",
  });
  assert.equal((await router.route("where is my package 1Z999", { topK: 1 })).tools[0]?.name, "track_parcel");
  await router.remove("send_email");
  const after = await router.route("email my boss that I'm late", { topK: 8 });
  assert.ok(!after.tools.some((t) => t.name === "send_email"));
  await router.close();
  const tools = [
    ...catalog.filter((t) => t.name !== "send_email"),
    {
      name: "track_parcel",
      description: "Track a parcel shipment by its tracking number.",
      inputSchema: { type: "object" as const },
      category: "shop",
    },
  ];
  const reopened = await Router.open({ tools, store, embedder });
  assert.equal(reopened.report.action, "loaded");
  assert.equal(reopened.report.embedded, 0);
  assert.equal((await reopened.route("where is my package", { topK: 1 })).tools[0]?.name, "track_parcel");
  await reopened.close();
  // A changed catalog is brought up to date incrementally: only the changed tool is embedded.
  const changed = tools.map((t) =>
    t.name === "calculate" ? { ...t, description: "Evaluate a math formula and return the number." } : t,
  );
  const updated = await Router.open({ tools: changed, store, embedder });
  assert.equal(updated.report.action, "updated");
  assert.equal(updated.report.embedded, 1);
  await updated.close();
});

test("a truncated index file is detected by its checksum and rebuilt", async () => {
  const store = freshStore();
  await (await Router.open({ tools: catalog, store, embedder })).close();
  const [indexFile] = (await store.list("router")).filter((k) => k.endsWith(".hnsw"));
  assert.ok(indexFile);
  await truncate(store.pathOf(indexFile), 100);
  const router = await Router.open({ tools: catalog, store, embedder });
  assert.equal(router.report.action, "rebuilt");
  assert.match(router.report.reason ?? "", /checksum/);
  assert.equal(
    (await router.route("translate this into French", { topK: 1 })).tools[0]?.name,
    "translate_text",
  );
  await router.close();
  // And the rebuilt index is sound: the next open loads it.
  const again = await Router.open({ tools: catalog, store, embedder });
  assert.equal(again.report.action, "loaded");
  await again.close();
});

test("an index built by another embedder is rebuilt, never mixed", async () => {
  const store = freshStore();
  await (await Router.open({ tools: catalog, store, embedder })).close();
  // A stand-in with the same model under another id, as a model upgrade would look.
  const other = {
    id: `${embedder.id}-other`,
    dimension: embedder.dimension,
    embed: (t: string[]) => embedder.embed(t),
  };
  const router = await Router.open({ tools: catalog, store, embedder: other });
  assert.equal(router.report.action, "rebuilt");
  assert.match(router.report.reason ?? "", /embedder/);
  await router.close();
  const garbage = (await store.list("router")).find((k) => k.endsWith("manifest.json"));
  assert.ok(garbage);
  await writeFile(store.pathOf(garbage), "{ not json");
  const recovered = await Router.open({ tools: catalog, store, embedder });
  assert.equal(recovered.report.action, "rebuilt");
  await recovered.close();
});

test("matched follows the threshold; tools are listed either way", async () => {
  const router = await Router.open({ tools: catalog, store: freshStore(), embedder });
  const low = await router.route("refund my order", { topK: 2, threshold: -10 });
  assert.equal(low.matched, true);
  const high = await router.route("refund my order", { topK: 2, threshold: 10 });
  assert.equal(high.matched, false);
  assert.equal(high.threshold, 10);
  assert.equal(high.tools.length, 2);
  assert.equal(high.tools[0]?.name, "refund_order");
  const scoped = await router.route("refund my order", { topK: 5, categories: ["math"] });
  assert.deepEqual(
    scoped.tools.map((t) => t.name),
    ["calculate"],
  );
  assert.equal(scoped.tools[0]?.why.tier, 2);
  await router.close();
});

test("feedback teaches the router, is deduplicated and persists across reopen", async () => {
  const store = freshStore();
  const router = await Router.open({ tools: catalog, store, embedder });
  const odd = "zorblax the quarterly thingamajig";
  await router.recordFeedback(odd, "calculate");
  await router.recordFeedback(`  ${odd} `, "calculate");
  assert.equal((await router.route(odd, { topK: 1 })).tools[0]?.name, "calculate");
  await router.close();
  const [file] = (await store.list("router")).filter((k) => k.endsWith("feedback.json"));
  assert.ok(file);
  const saved = JSON.parse(await readFile(store.pathOf(file), "utf8"));
  assert.deepEqual(saved.pairs, [{ query: odd, tool: "calculate" }]);
  const reopened = await Router.open({ tools: catalog, store, embedder });
  assert.equal(reopened.report.embedded, 0);
  assert.equal((await reopened.route(odd, { topK: 1 })).tools[0]?.name, "calculate");
  await assert.rejects(reopened.recordFeedback("anything", "no_such_tool"), /unknown tool "no_such_tool"/);
  await reopened.close();
});

test("bad input gets one clear error or a notice", async () => {
  await assert.rejects(
    Router.open({ tools: [], store: freshStore(), embedder }),
    (e: unknown) => e instanceof RouterError && /no tools/.test(e.message),
  );
  const router = await Router.open({ tools: catalog, store: freshStore(), embedder });
  await assert.rejects(router.route("   \n ", { topK: 3 }), /query is empty/);
  await assert.rejects(router.route("", { topK: 3 }), /query is empty/);
  const long = await router.route(`refund my order ${"please ".repeat(400)}`, { topK: 1 });
  assert.equal(long.notices.length, 1);
  assert.match(long.notices[0] ?? "", /first 1000/);
  assert.equal(long.query.length, 1000);
  await router.close();
});

test("calibration fits weights and threshold from labelled queries and persists them", async () => {
  const store = freshStore();
  const router = await Router.open({ tools: catalog, store, embedder });
  const labelled = (await readFile(new URL("./fixtures/small-queries.jsonl", import.meta.url), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const fitResult = await router.calibrate(labelled);
  assert.ok(fitResult.lexicalWeight >= 0 && fitResult.lexicalWeight <= 1);
  assert.ok(fitResult.tradeOff.length > 0);
  assert.ok(router.currentCalibration.fittedAt);
  assert.deepEqual(router.currentCalibration.noToolQueries, ["what is the meaning of life"]);
  await router.close();
  const reopened = await Router.open({ tools: catalog, store, embedder });
  assert.equal(reopened.currentCalibration.threshold, fitResult.threshold);
  assert.equal(reopened.report.embedded, 0);
  await reopened.close();
});

test("a tool's examples count together: one lucky example does not outrank examples that agree", async () => {
  // A stand-in embedder built here: fixed unit vectors, so the scores are known exactly. The query is e0;
  // every text not listed (tool texts, no-tool anchors) is e11, orthogonal to it.
  const dimension = 12;
  const basis = (weights: Record<number, number>) => {
    const v = new Float32Array(dimension);
    for (const [i, w] of Object.entries(weights)) v[Number(i)] = w;
    return v;
  };
  const side = Math.sqrt(1 - 0.9 * 0.9);
  const vectors = new Map<string, Float32Array>([
    ["the query", basis({ 0: 1 })],
    ["lucky one", basis({ 0: 0.9, 1: side })],
    ["lucky two", basis({ 2: 1 })],
    ["lucky three", basis({ 3: 1 })],
    ["steady one", basis({ 0: 0.8, 4: 0.6 })],
    ["steady two", basis({ 0: 0.8, 5: 0.6 })],
    ["steady three", basis({ 0: 0.8, 6: 0.6 })],
    ["single one", basis({ 0: 0.9, 7: side })],
  ]);
  const standIn = {
    id: "stand-in@1",
    dimension,
    async embed(texts: string[]) {
      return texts.map((t) => vectors.get(t) ?? basis({ 11: 1 }));
    },
  };
  const tool = (name: string, examples: string[]): Tool => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: "object" },
    examples,
  });
  const router = await Router.open({
    tools: [
      tool("lucky", ["lucky one", "lucky two", "lucky three"]),
      tool("steady", ["steady one", "steady two", "steady three"]),
      tool("single", ["single one"]),
    ],
    store: freshStore(),
    embedder: standIn,
  });
  const result = await router.route("the query", { topK: 3 });
  const dense = new Map(result.tools.map((t) => [t.name, t.why.dense]));
  // steady: the centroid of three examples at 0.8 sits at 2.4 / √(2.4² + 3·0.6²).
  assert.ok(Math.abs((dense.get("steady") ?? 0) - 2.4 / Math.sqrt(2.4 ** 2 + 3 * 0.36)) < 1e-4);
  // lucky: its closest example (0.9) less the 0.05 discount beats the mean of two (0.45) and the centroid.
  assert.ok(Math.abs((dense.get("lucky") ?? 0) - 0.85) < 1e-4);
  // A tool with a single example keeps its best entry as it is.
  assert.ok(Math.abs((dense.get("single") ?? 0) - 0.9) < 1e-4);
  assert.deepEqual(
    result.tools.map((t) => t.name),
    ["steady", "single", "lucky"],
  );
  await router.close();
});

test("after upserts, removals, feedback and a reopen, every route's BM25 and subword scores equal a fresh index's", async () => {
  // Routes read BM25 and subword scores by the router's tool numbers rather than by name; this checks the
  // numbers stay right.
  const store = freshStore();
  let router = await Router.open({ tools: catalog, store, embedder });
  const parcel: Tool = {
    name: "track_parcel",
    description: "Track a parcel shipment by its tracking number.",
    inputSchema: { type: "object" },
    category: "shop",
  };
  await router.upsert(parcel);
  await router.remove("send_email");
  await router.upsert({ ...parcel, description: "Find where a parcel is from its tracking number." });
  await router.recordFeedback("where did my order go", "track_parcel");
  await router.close();
  const tools = [...catalog.filter((t) => t.name !== "send_email"), parcel];
  router = await Router.open({ tools, store, embedder });
  await router.upsert({ ...parcel, description: "Find where a parcel is from its tracking number." });
  const fresh = new LexicalIndex();
  for (const tool of [...catalog.filter((t) => t.name !== "send_email")]) fresh.upsert(tool);
  fresh.upsert({ ...parcel, description: "Find where a parcel is from its tracking number." }, [
    "where did my order go",
  ]);
  const finalTools = [
    ...catalog.filter((t) => t.name !== "send_email"),
    { ...parcel, description: "Find where a parcel is from its tracking number." },
  ];
  const freshSubword = new SubwordIndex();
  finalTools.forEach((tool, i) => {
    freshSubword.upsert(i, ownText(tool));
  });
  for (const query of ["where is my parcel", "convert dollars to euros", "send an email to my team"]) {
    const result = await router.route(query, { topK: 8 });
    const expected = fresh.search(query);
    const subword = new Map<number, number>();
    freshSubword.similarities(trigrams(query), finalTools.keys(), subword);
    for (const tool of result.tools) {
      assert.ok(
        Math.abs(tool.why.lexical - expected.score(tool.name)) < 1e-6,
        `${query}: ${tool.name} ${tool.why.lexical} vs ${expected.score(tool.name)}`,
      );
      const want = subword.get(finalTools.findIndex((t) => t.name === tool.name)) as number;
      assert.ok(
        Math.abs(tool.why.subword - want) < 1e-4,
        `${query}: ${tool.name} ${tool.why.subword} vs ${want}`,
      );
    }
  }
  await router.close();
});

test("a route runs BM25 while the embedder works, and an embedding failure reaches the caller", async () => {
  // A stand-in embedder built here: one fixed vector, answered after a delay for the query only.
  let pending: (() => void) | undefined;
  let failNext = false;
  const standIn = {
    id: "stand-in-slow@1",
    dimension: 4,
    async embed(texts: string[]) {
      if (texts.length === 1 && texts[0]?.startsWith("slow")) {
        await new Promise<void>((resolve) => {
          pending = resolve;
        });
        if (failNext) throw new Error("the model crashed");
      }
      return texts.map(() => Float32Array.from([0.5, 0.5, 0.5, 0.5]));
    },
  };
  // Functions rather than reading `pending` here: it is set inside the embedder, which TypeScript's
  // narrowing does not see.
  const embedding = () => pending !== undefined;
  const release = () => {
    const resolve = pending;
    pending = undefined;
    resolve?.();
  };
  const router = await Router.open({ tools: catalog, store: freshStore(), embedder: standIn });
  let lexicalRan = false;
  const searchLexical = router.searchLexical.bind(router);
  router.searchLexical = (text: string) => {
    lexicalRan = true;
    return searchLexical(text);
  };
  const routed = router.route("slow: convert dollars to euros", { topK: 3 });
  // Let the event loop turn until the embedding is asked for and BM25 has had its turn.
  while (!embedding()) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(lexicalRan, true, "BM25 ran before the embedding came back");
  release();
  assert.equal((await routed).tools[0]?.name, "convert_currency");
  failNext = true;
  const failing = router.route("slow: anything", { topK: 3 });
  while (!embedding()) await new Promise((resolve) => setImmediate(resolve));
  release();
  await assert.rejects(failing, /the model crashed/);
  await router.close();
});

test("an index build embeds each distinct text once, and every entry gets its text's vector", async () => {
  const embedded: string[] = [];
  const counting = {
    id: embedder.id,
    dimension: embedder.dimension,
    async embed(texts: string[]) {
      embedded.push(...texts);
      return embedder.embed(texts);
    },
  };
  // Two tools share an example: one text, two entries.
  const shared = "convert this amount for me";
  const tools = catalog.map((tool, index) => (index < 2 ? { ...tool, examples: [shared] } : tool));
  const router = await Router.open({ tools, store: freshStore(), embedder, indexEmbedder: counting });
  assert.equal(embedded.filter((text) => text === shared).length, 1);
  assert.equal(new Set(embedded).size, embedded.length);
  assert.ok(
    router.report.entries > embedded.length,
    `${router.report.entries} entries, ${embedded.length} texts`,
  );
  await router.close();
});

/** An index embedder (a stand-in around the real one) that holds every call until the test lets it go. */
function heldEmbedder() {
  const held: (() => void)[] = [];
  let open = false;
  return {
    embedder: {
      id: embedder.id,
      dimension: embedder.dimension,
      async embed(texts: string[]) {
        if (!open) await new Promise<void>((resolve) => held.push(resolve));
        return embedder.embed(texts);
      },
    },
    release() {
      open = true;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

test("a large build serves on BM25 and trigrams while the dense index fills, then on all of it", async () => {
  const { embedder: held, release } = heldEmbedder();
  const router = await Router.open({
    tools: catalog,
    store: freshStore(),
    embedder,
    indexEmbedder: held,
    fillInBackgroundFrom: 1,
  });
  assert.equal(router.dense.state, "filling");
  const early = await router.route("convert 20 dollars to euros", { topK: 3 });
  assert.equal(early.tools[0]?.name, "convert_currency");
  assert.equal(early.tools[0]?.why.dense, 0);
  assert.match(early.notices.join(" "), /dense index is still filling.*BM25 and trigrams alone/);
  // A change waits for the fill, as changes wait for each other.
  let upserted = false;
  const upsert = router
    .upsert({
      name: "track_parcel",
      description: "Track a parcel by its tracking number.",
      inputSchema: { type: "object" },
    })
    .then(() => {
      upserted = true;
    });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(upserted, false);
  release();
  await router.denseComplete;
  await upsert;
  assert.equal(router.dense.state, "complete");
  const late = await router.route("convert 20 dollars to euros", { topK: 3 });
  assert.equal(late.tools[0]?.name, "convert_currency");
  assert.ok((late.tools[0]?.why.dense ?? 0) > 0);
  assert.deepEqual(late.notices, []);
  await router.close();
});

test("closing during a background fill keeps what was embedded, and a reopen embeds only the rest", async () => {
  const tools: Tool[] = Array.from({ length: 600 }, (_, i) => ({
    name: `task_${i}`,
    description: `Runs job number ${i} for the widget family ${i % 17}.`,
    inputSchema: { type: "object" },
  }));
  const store = freshStore();
  const { embedder: held, release } = heldEmbedder();
  const router = await Router.open({ tools, store, embedder, indexEmbedder: held, fillInBackgroundFrom: 1 });
  const closed = router.close();
  release();
  await closed;
  const reopened = await Router.open({ tools, store, embedder });
  assert.equal(reopened.report.action, "updated");
  assert.ok(reopened.report.embedded > 0, "the rest was embedded on reopen");
  assert.ok(reopened.report.embedded < 600, `only the rest: ${reopened.report.embedded} of 600+`);
  const fresh = await Router.open({ tools, store: freshStore(), embedder });
  assert.equal(reopened.report.entries, fresh.report.entries);
  await reopened.close();
  await fresh.close();
});

test("a small change is embedded before open returns, whatever the background bar", async () => {
  const router = await Router.open({
    tools: catalog,
    store: freshStore(),
    embedder,
    fillInBackgroundFrom: 10_000,
  });
  assert.equal(router.dense.state, "complete");
  await router.close();
});
