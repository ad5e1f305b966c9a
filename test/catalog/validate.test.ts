import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

const run = promisify(execFile);
const cli = join(import.meta.dirname, "../../bin/switchboard.js");

async function validate(path: string) {
  try {
    const { stdout } = await run(process.execPath, [cli, "catalog", "validate", path, "--json"]);
    return { code: 0, report: JSON.parse(stdout) };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, report: JSON.parse(e.stdout) };
  }
}

test("a catalog with five planted errors reports all five with file, tool and path, and exits 1", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sb-catalog-"));
  const good = {
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object" },
  };
  await writeFile(
    join(dir, "a.json"),
    JSON.stringify([
      good,
      { ...good, name: "blank", description: "   " },
      {
        ...good,
        name: "bad_schema",
        inputSchema: { type: "object", properties: { city: { type: "strin" } } },
      },
      { ...good, name: "bad_binding", binding: { type: "ftp", url: "x" } },
    ]),
  );
  await writeFile(
    join(dir, "b.yaml"),
    [
      "tools:",
      "  - name: get_weather",
      "    description: again",
      "    inputSchema: { type: object }",
      "  - name: long_description",
      `    description: ${"x".repeat(5000)}`,
      "    inputSchema: { type: object }",
    ].join("\n"),
  );
  const { code, report } = await validate(dir);
  assert.equal(code, 1);
  const found = report.problems.map(
    (p: { file: string; tool: string; path: string }) =>
      `${p.file.slice(dir.length + 1)}|${p.tool}|${p.path}`,
  );
  assert.deepEqual(found.sort(), [
    "a.json|bad_binding|binding.type",
    "a.json|bad_schema|inputSchema.properties.city.type",
    "a.json|blank|description",
    "b.yaml|get_weather|name",
    "b.yaml|long_description|description",
  ]);
  assert.equal(report.errors, 5);
});

test("the MetaTool development catalog validates without errors", async () => {
  const { code, report } = await validate(join(import.meta.dirname, "../fixtures/metatool/catalog.json"));
  assert.equal(code, 0);
  assert.equal(report.tools, 199);
});

test("one tool's mistakes do not hide each other: empty description, bad schema type and duplicate name", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sb-catalog-"));
  const good = { name: "lookup", description: "Look a word up", inputSchema: { type: "object" } };
  await writeFile(
    join(dir, "tools.json"),
    JSON.stringify([
      good,
      {
        name: "lookup",
        description: "",
        inputSchema: { type: "object", properties: { q: { type: "strng" } } },
      },
    ]),
  );
  const { code, report } = await validate(dir);
  assert.equal(code, 1);
  const found = report.problems.map((p: { tool: string; path: string }) => `${p.tool}|${p.path}`).sort();
  assert.deepEqual(found, ["lookup|description", "lookup|inputSchema.properties.q.type", "lookup|name"]);
  assert.equal(report.tools, 1);
});
