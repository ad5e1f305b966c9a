// The labelled evaluation queries for the bundled catalog (catalog/eval/queries.jsonl), which the router's
// threshold calibration and evaluation read: well-formed, about the real tools, and not the tools' own
// examples (an evaluation on the examples would only measure memorisation).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { loadCatalog } from "../../src/catalog/index.ts";

const root = join(import.meta.dirname, "../..");
const tools = await loadCatalog(join(root, "catalog"));
const text = await readFile(join(root, "catalog/eval/queries.jsonl"), "utf8");
const lines = text.split("\n").filter((line) => line.trim() !== "");
const queries = lines.map((line, k) => {
  try {
    return JSON.parse(line) as { query: string; tools: string[] };
  } catch (error) {
    throw new Error(`catalog/eval/queries.jsonl line ${k + 1}: ${(error as Error).message}`);
  }
});

test("every line is { query, tools } with a non-empty query and known, distinct tool names", () => {
  const names = new Set(tools.map((t) => t.name));
  for (const [k, entry] of queries.entries()) {
    const where = `line ${k + 1}`;
    assert.deepEqual(Object.keys(entry).sort(), ["query", "tools"], where);
    assert.equal(typeof entry.query, "string", where);
    assert.ok(entry.query.trim().length > 0, where);
    assert.ok(Array.isArray(entry.tools), where);
    assert.equal(new Set(entry.tools).size, entry.tools.length, `${where}: repeated tool`);
    for (const name of entry.tools) assert.ok(names.has(name), `${where}: unknown tool ${name}`);
  }
});

test("at least 250 distinct queries, about 15% needing no tool and about 10% needing several", () => {
  assert.ok(queries.length >= 250, `only ${queries.length} queries`);
  const distinct = new Set(queries.map((q) => q.query.trim().toLowerCase()));
  assert.equal(distinct.size, queries.length, "a query appears twice");
  const none = queries.filter((q) => q.tools.length === 0).length / queries.length;
  const several = queries.filter((q) => q.tools.length > 1).length / queries.length;
  assert.ok(none >= 0.12 && none <= 0.2, `no-tool share ${none.toFixed(3)}`);
  assert.ok(several >= 0.08 && several <= 0.15, `multi-tool share ${several.toFixed(3)}`);
});

test("every tool is the answer to at least two queries", () => {
  const counts = new Map<string, number>();
  for (const q of queries) for (const name of q.tools) counts.set(name, (counts.get(name) ?? 0) + 1);
  const rare = tools.filter((t) => (counts.get(t.name) ?? 0) < 2).map((t) => t.name);
  assert.deepEqual(rare, []);
});

test("no query is a copy of a tool's own example", () => {
  const examples = new Set(tools.flatMap((t) => t.examples ?? []).map((e) => e.trim().toLowerCase()));
  const copies = queries.filter((q) => examples.has(q.query.trim().toLowerCase())).map((q) => q.query);
  assert.deepEqual(copies, []);
});
