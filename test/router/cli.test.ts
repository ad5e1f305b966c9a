// The CLI contract, through the real `switchboard` process: the JSON shapes external checks rely on.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../bin/switchboard.js", import.meta.url));
const catalog = fileURLToPath(new URL("./fixtures/small-catalog.json", import.meta.url));
const queries = fileURLToPath(new URL("./fixtures/small-queries.jsonl", import.meta.url));
let data: string;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

before(async () => {
  data = await mkdtemp(join(tmpdir(), "sb-router-cli-"));
});
after(async () => {
  await rm(data, { recursive: true, force: true });
});

test("index --json builds, then finds the index up to date", async () => {
  const first = await run(["index", "--catalog", catalog, "--data", data, "--json"]);
  assert.equal(first.code, 0, first.stderr);
  const built = JSON.parse(first.stdout);
  assert.equal(built.action, "built");
  assert.equal(built.tools, 8);
  const second = JSON.parse((await run(["index", "--catalog", catalog, "--data", data, "--json"])).stdout);
  assert.equal(second.action, "loaded");
  assert.equal(second.embedded, 0);
});

test("route --json prints one object with matched and ranked tools", async () => {
  const { code, stdout } = await run([
    "route",
    "--catalog",
    catalog,
    "--data",
    data,
    "--top-k",
    "2",
    "--json",
    "I want my money back for order 1234",
  ]);
  assert.equal(code, 0);
  const lines = stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const result = JSON.parse(lines[0] as string);
  assert.equal(typeof result.matched, "boolean");
  assert.equal(result.query, "I want my money back for order 1234");
  assert.equal(result.tools.length, 2);
  assert.equal(result.tools[0].name, "refund_order");
  assert.equal(typeof result.tools[0].score, "number");
  assert.ok(result.tools[0].score >= result.tools[1].score);
});

test("route --queries prints one line per query, in order, at most K tools each", async () => {
  const { code, stdout } = await run([
    "route",
    "--catalog",
    catalog,
    "--data",
    data,
    "--top-k",
    "3",
    "--json",
    "--queries",
    queries,
  ]);
  assert.equal(code, 0);
  const lines = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 5);
  assert.equal(lines[0].query, "will it rain in Berlin today");
  for (const line of lines) {
    assert.deepEqual(Object.keys(line).sort(), ["matched", "query", "tools"]);
    assert.ok(line.tools.length > 0 && line.tools.length <= 3);
    for (const t of line.tools) assert.deepEqual(Object.keys(t).sort(), ["name", "score"]);
  }
});

test("eval --json reports exactly the contract's metrics, with K in the names", async () => {
  const { code, stdout, stderr } = await run([
    "eval",
    "--catalog",
    catalog,
    "--data",
    data,
    "--queries",
    queries,
    "--top-k",
    "3",
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  const metrics = JSON.parse(stdout);
  assert.deepEqual(Object.keys(metrics).sort(), [
    "complete@3",
    "hit@1",
    "mrr",
    "noToolAUROC",
    "noToolAccuracy",
    "p50Ms",
    "p99Ms",
    "recall@3",
  ]);
  assert.ok(metrics["hit@1"] >= 0.75);
});

test("eval --examples learns in its own index, leaving the catalog's alone", async () => {
  const { code, stdout, stderr } = await run([
    "eval",
    "--catalog",
    catalog,
    "--data",
    data,
    "--queries",
    queries,
    "--examples",
    queries,
    "--top-k",
    "3",
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  assert.equal(typeof JSON.parse(stdout)["recall@3"], "number");
  const index = JSON.parse((await run(["index", "--catalog", catalog, "--data", data, "--json"])).stdout);
  assert.equal(index.action, "loaded");
  assert.match(index.calibration, /^(?!fitted)/);
});

test("bad input: empty query, unknown embedder, empty catalog", async () => {
  const empty = await run(["route", "--catalog", catalog, "--data", data, "--json", "   "]);
  assert.equal(empty.code, 1);
  assert.deepEqual(Object.keys(JSON.parse(empty.stdout).error), ["code", "message"]);
  assert.match(JSON.parse(empty.stdout).error.message, /query is empty/);
  const embedder = await run(["index", "--catalog", catalog, "--data", data, "--embedder", "word2vec"]);
  assert.equal(embedder.code, 2);
  assert.match(embedder.stderr, /--embedder: unknown embedder/);
  const none = join(data, "empty.json");
  await writeFile(none, "[]");
  const noTools = await run(["index", "--catalog", none, "--data", data]);
  assert.equal(noTools.code, 1);
  assert.match(noTools.stderr, /no tools/);
});

test("the shipped index of the bundled catalog is current: a fresh data folder embeds nothing", async () => {
  const fresh = join(data, "bundled");
  const result = await run(["index", "--data", fresh, "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const opened = JSON.parse(result.stdout);
  assert.equal(opened.seeded, true);
  assert.equal(opened.embedded, 0, "the catalog changed since prebuilt/ was made: run npm run build:index");
});
