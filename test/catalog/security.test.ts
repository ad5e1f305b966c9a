// Catalog-side rules: sandbox files stay inside the catalog folder, reserved names are errors while unusual
// ones stay warnings, schema patterns run in linear time, and what a tool written through the API may not do.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { importedName } from "../../src/catalog/admission.ts";
import {
  admissionIssues,
  checkJsonSchema,
  readCatalog,
  type Tool,
  validateAgainstSchema,
} from "../../src/catalog/index.ts";

const object = { type: "object" as const };

async function catalogWith(tools: object[], files: Record<string, string> = {}) {
  const root = await mkdtemp(join(tmpdir(), "switchboard-catsec-"));
  const folder = join(root, "catalog");
  await mkdir(join(folder, "tools"), { recursive: true });
  await writeFile(join(root, "outside.js"), "async function outside() { return 1; }");
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  await writeFile(join(folder, "tools.json"), JSON.stringify(tools));
  return { root, folder };
}

test("a sandbox file must resolve inside the catalog folder; a missing one is named as written", async () => {
  const { root, folder } = await catalogWith([
    {
      name: "inside",
      description: "d",
      inputSchema: object,
      binding: { type: "sandbox", file: "tools/inside.js" },
    },
    {
      name: "climbs",
      description: "d",
      inputSchema: object,
      binding: { type: "sandbox", file: "../outside.js" },
    },
    {
      name: "absolute",
      description: "d",
      inputSchema: object,
      binding: { type: "sandbox", file: "/etc/passwd" },
    },
    {
      name: "linked",
      description: "d",
      inputSchema: object,
      binding: { type: "sandbox", file: "tools/link.js" },
    },
    {
      name: "missing",
      description: "d",
      inputSchema: object,
      binding: { type: "sandbox", file: "tools/gone.js" },
    },
  ]);
  await writeFile(join(folder, "tools/inside.js"), "async function inside() { return 1; }");
  await symlink(join(root, "outside.js"), join(folder, "tools/link.js"));
  const report = await readCatalog(folder);
  assert.deepEqual(
    report.tools.map((t) => t.name),
    ["inside"],
  );
  const messages = Object.fromEntries(report.problems.map((p) => [p.tool, p.message]));
  assert.match(messages.climbs ?? "", /outside the catalog folder/);
  assert.match(messages.absolute ?? "", /outside the catalog folder/);
  assert.match(messages.linked ?? "", /outside the catalog folder/);
  assert.equal(messages.missing, "sandbox file not found: tools/gone.js");
});

test("reserved names are catalog errors; unusual names and catastrophic patterns only warnings", async () => {
  const { folder } = await catalogWith([
    { name: "__proto__", description: "d", inputSchema: object },
    { name: "PDF&URLTool", description: "d", inputSchema: object },
    {
      name: "codes",
      description: "d",
      inputSchema: { type: "object", properties: { c: { type: "string", pattern: "^(a+)+$" } } },
    },
  ]);
  const report = await readCatalog(folder);
  assert.deepEqual(
    report.tools.map((t) => t.name),
    ["PDF&URLTool", "codes"],
  );
  const found = report.problems.map((p) => `${p.severity}|${p.tool}|${p.path}`);
  assert.deepEqual(found.sort(), [
    "error|__proto__|name",
    "warning|PDF&URLTool|name",
    "warning|codes|inputSchema.properties.c.pattern",
  ]);
});

test("schema patterns run on a linear-time engine, ECMAScript escapes and lookarounds included", () => {
  const schema = (pattern: string) => ({ type: "object", properties: { v: { type: "string", pattern } } });
  const check = (pattern: string, value: string) =>
    validateAgainstSchema(schema(pattern), { v: value }).length === 0;
  // Exponential for a backtracking engine; RE2 answers at once (no timing asserted, a stall would hang the test).
  assert.equal(check("^(a+)+$", `${"a".repeat(5000)}!`), false);
  assert.equal(check("^(a+)+$", "aaaa"), true);
  assert.equal(check("^\\u0041+$", "AAA"), true, "\\uXXXX");
  assert.equal(check("^\\u{1F600}$", "\u{1F600}"), true, "\\u{…}");
  assert.equal(check("^(?!foo)\\w+$", "foox"), false, "lookahead falls back to a safe JavaScript regex");
  assert.equal(check("^(?!foo)\\w+$", "bar"), true);
  assert.equal(check("^[A-Z]{3}$", "EUR"), true);
  assert.equal(check("^[A-Z]{3}$", "EURO"), false);
  const issues = checkJsonSchema(schema("^(?=(a+)+)b$"));
  assert.match(issues[0]?.message ?? "", /backtrack catastrophically/);
});

test("what a tool written through the API may not do, each with its field path", () => {
  const tool: Tool = {
    name: "a<script>",
    description: "d",
    inputSchema: {
      type: "object",
      properties: { s: { type: "string", pattern: "(x*)*y" } },
      patternProperties: { "^(b+)+$": { type: "string" } },
    },
    binding: {
      type: "http",
      method: "GET",
      url: "https://api.example.com/{env.HOME}",
      headers: { authorization: "Bearer {env.DECLARED}" },
    },
    policy: {
      fallback: [
        { type: "mcp", command: "sh", env: { K: "{env.SWITCHBOARD_AGENT_KEYS}" } },
        { type: "sandbox", file: "/etc/passwd" },
      ],
    },
  };
  const paths = admissionIssues(tool, { mcpCommands: ["node"], toolSecrets: ["DECLARED"] }).map(
    (i) => i.path,
  );
  assert.deepEqual(paths.sort(), [
    "binding.url",
    "inputSchema.patternProperties.^(b+)+$",
    "inputSchema.properties.s.pattern",
    "name",
    "policy.fallback.0.command",
    "policy.fallback.0.env.K",
    "policy.fallback.1.file",
  ]);
});

test("importers write names that follow the MCP rule", () => {
  assert.equal(importedName("PDF&URL Tool"), "PDF_URL_Tool");
  assert.equal(importedName("__proto__"), "__proto___tool");
  assert.equal(importedName("constructor"), "constructor_tool");
  assert.equal(importedName("\u202E"), "tool");
  assert.equal(importedName("x".repeat(200)).length, 128);
});
