import assert from "node:assert/strict";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { CATALOG_SCHEMA_PATH, catalogJsonSchemaText } from "../../scripts/generate-catalog-schema.ts";
import { readCatalog, validateAgainstSchema } from "../../src/catalog/index.ts";

const committed = await readFile(CATALOG_SCHEMA_PATH, "utf8");
const schema = JSON.parse(committed);

test("schema/catalog.schema.json is exactly what `npm run schema` generates from the zod schema", () => {
  assert.equal(committed, catalogJsonSchemaText(), "run `npm run schema` and commit the result");
});

test("the shipped JSON Schema accepts a real catalog and rejects a broken tool with its path", async () => {
  const metatool = JSON.parse(
    await readFile(join(import.meta.dirname, "../fixtures/metatool/catalog.json"), "utf8"),
  );
  assert.deepEqual(validateAgainstSchema(schema, metatool), []);
  const broken = [{ name: "x", description: "d", inputSchema: { type: "object" }, binding: { type: "ftp" } }];
  const issues = validateAgainstSchema(schema, broken);
  assert.ok(
    issues.some((i) => i.path === "0.binding.type"),
    JSON.stringify(issues),
  );
});

test('a catalog file that points editors at the schema with "$schema" loads and validates', async () => {
  const file = join(await mkdtemp(join(tmpdir(), "sb-schema-")), "tools.json");
  const document = {
    $schema: CATALOG_SCHEMA_PATH,
    tools: [{ name: "echo", description: "Echo the input", inputSchema: { type: "object" } }],
  };
  await writeFile(file, JSON.stringify(document));
  assert.deepEqual(validateAgainstSchema(schema, document), []);
  const report = await readCatalog(file);
  assert.deepEqual(report.problems, []);
  assert.equal(report.tools.length, 1);
});
