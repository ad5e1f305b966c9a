// The bundled catalog says what it means: every schema property has a type, no schema carries a key that
// is not a JSON Schema keyword (the trace of an unquoted "a, b" in a YAML flow mapping), no YAML comment
// cuts a value short, and every example call with a known answer gets that answer from the real sandbox.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import { Lexer } from "yaml";
import { loadCatalog, type Tool, validateAgainstSchema } from "../../src/catalog/index.ts";
import { Sandbox } from "../../src/synth/index.ts";

const dir = join(import.meta.dirname, "../../catalog");
const tools = await loadCatalog(dir);

const KEYWORDS = new Set(
  (
    "$schema $id $ref $defs $comment definitions type enum const title description default examples " +
    "properties required additionalProperties patternProperties propertyNames minProperties maxProperties " +
    "items prefixItems minItems maxItems uniqueItems contains minContains maxContains " +
    "minLength maxLength pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf " +
    "anyOf oneOf allOf not if then else readOnly writeOnly deprecated contentEncoding contentMediaType"
  ).split(" "),
);

/** Problems of one schema node: keys that are not keywords, and properties that declare no type. */
function schemaProblems(schema: unknown, path: string, out: string[]): void {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
    out.push(`${path}: is not a schema object`);
    return;
  }
  const node = schema as Record<string, unknown>;
  for (const key of Object.keys(node)) if (!KEYWORDS.has(key)) out.push(`${path}: stray key "${key}"`);
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    const typed =
      child &&
      typeof child === "object" &&
      ["type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"].some((k) => k in child);
    if (!typed) out.push(`${path}.properties.${name}: has no type`);
    schemaProblems(child, `${path}.properties.${name}`, out);
  }
  for (const key of ["$defs", "definitions"] as const)
    for (const [name, child] of Object.entries((node[key] ?? {}) as Record<string, unknown>))
      schemaProblems(child, `${path}.${key}.${name}`, out);
  if (node.items && typeof node.items === "object" && !Array.isArray(node.items))
    schemaProblems(node.items, `${path}.items`, out);
  for (const key of ["anyOf", "oneOf", "allOf"] as const)
    if (Array.isArray(node[key]))
      for (const [i, child] of node[key].entries()) schemaProblems(child, `${path}.${key}.${i}`, out);
}

test("every property of every bundled schema has a type and no schema has stray keys", () => {
  const problems: string[] = [];
  for (const tool of tools) {
    schemaProblems(tool.inputSchema, `${tool.name}.inputSchema`, problems);
    if (tool.outputSchema) schemaProblems(tool.outputSchema, `${tool.name}.outputSchema`, problems);
  }
  assert.deepEqual(problems, []);
});

test("the schema check itself catches an untyped property and a YAML-split description", () => {
  const problems: string[] = [];
  schemaProblems(
    {
      type: "object",
      properties: { a: { description: "any" }, b: { type: "string", "or the default": null } },
    },
    "t",
    problems,
  );
  assert.deepEqual(problems, ["t.properties.a: has no type", 't.properties.b: stray key "or the default"']);
});

/** Comments that follow content on the same line: in YAML an unquoted " #" ends the value there. */
function trailingComments(source: string): number[] {
  const lines: number[] = [];
  let offset = 0;
  for (const token of new Lexer().lex(source)) {
    if (token.startsWith("#")) {
      const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
      if (source.slice(lineStart, offset).trim() !== "")
        lines.push(source.slice(0, offset).split("\n").length);
    }
    // Control tokens (document markers, flow starts…) are single characters outside the source text.
    if (token.length !== 1 || source[offset] === token) offset += token.length;
  }
  return lines;
}

test("no YAML comment trails a value in the bundled catalog files", async () => {
  const found: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".yaml"))) {
    const lines = trailingComments(await readFile(join(dir, file), "utf8"));
    for (const line of lines) found.push(`${file}:${line}`);
  }
  assert.deepEqual(found, []);
  assert.deepEqual(trailingComments("a: x\nexamples:\n  - convert #3498db to rgb\n"), [3]);
});

const sandbox = new Sandbox();
after(() => sandbox.close());

function contains(actual: unknown, expected: unknown): boolean {
  if (expected && typeof expected === "object" && !Array.isArray(expected))
    return (
      !!actual &&
      typeof actual === "object" &&
      Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v))
    );
  return JSON.stringify(actual) === JSON.stringify(expected);
}

const withCalls = tools.filter((t): t is Tool & { exampleCalls: NonNullable<Tool["exampleCalls"]> } =>
  Boolean(t.exampleCalls?.length),
);

test("the offline tools carry example calls with known answers", () => {
  assert.ok(withCalls.length >= 25, `only ${withCalls.length} tools have example calls`);
});

for (const tool of withCalls) {
  test(`${tool.name}: its example calls give their known answers`, async () => {
    const binding = tool.binding;
    if (binding?.type !== "sandbox" || !binding.file)
      throw new Error(`${tool.name}: example calls need a sandboxed tool`);
    const code = await readFile(binding.file, "utf8");
    for (const call of tool.exampleCalls) {
      assert.deepEqual(
        validateAgainstSchema(tool.inputSchema, call.arguments),
        [],
        "arguments fit the schema",
      );
      const { value } = await sandbox.run({
        code,
        name: tool.name,
        args: call.arguments,
        capabilities: binding.capabilities,
        timeoutMs: 5000,
      });
      assert.ok(
        contains(value, call.output),
        `${JSON.stringify(call.arguments)} gave ${JSON.stringify(value)}, expected ${JSON.stringify(call.output)}`,
      );
    }
  });
}
