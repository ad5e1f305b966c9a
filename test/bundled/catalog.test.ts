// The bundled catalog as a whole: it validates cleanly, covers the departments it promises, and every
// tool is described well enough to be routed to and safe to run (accurate hints, keys for retried writes).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { readCatalog, TOOL_NAME_PATTERN, type Tool } from "../../src/catalog/index.ts";
import { classify } from "../../src/dispatch/index.ts";
import { checkCode, SandboxError } from "../../src/synth/index.ts";

const catalogDir = join(import.meta.dirname, "../../catalog");
const report = await readCatalog(catalogDir);
const tools = report.tools;

const isOffline = (tool: Tool) =>
  tool.binding?.type === "sandbox" && tool.binding.capabilities?.fetch === undefined;

test("the bundled catalog validates with zero errors and zero warnings", () => {
  assert.deepEqual(report.problems, []);
  assert.ok(report.files.length >= 8, `expected one file per department, got ${report.files.length}`);
});

test("it has at least 60 tools over the eight promised departments, 15 of them offline", () => {
  assert.ok(tools.length >= 60, `only ${tools.length} tools`);
  const categories = new Set(tools.map((t) => t.category));
  for (const department of ["billing", "shipping", "accounts", "weather", "web", "math", "text", "developer"])
    assert.ok(categories.has(department), `no tool in department ${department}`);
  for (const category of categories) {
    const count = tools.filter((t) => t.category === category).length;
    assert.ok(count >= 3, `department ${category} has only ${count} tools`);
  }
  const offline = tools.filter(isOffline);
  assert.ok(offline.length >= 15, `only ${offline.length} offline sandbox tools`);
});

test("every tool is fully described: name, category, tags, 3-16 examples, tight input schema, all four hints", () => {
  for (const tool of tools) {
    const where = `tool ${tool.name}`;
    assert.match(tool.name, TOOL_NAME_PATTERN, where);
    assert.ok(tool.title, `${where}: no title`);
    assert.ok(tool.description.length >= 120, `${where}: description too short to route on`);
    assert.ok(tool.category, `${where}: no category`);
    assert.ok((tool.tags ?? []).length >= 3, `${where}: fewer than 3 tags`);
    const examples = tool.examples ?? [];
    assert.ok(examples.length >= 3 && examples.length <= 16, `${where}: ${examples.length} examples`);
    assert.equal(
      new Set(examples.map((e) => e.toLowerCase())).size,
      examples.length,
      `${where}: repeated example`,
    );
    assert.equal(
      tool.inputSchema.additionalProperties,
      false,
      `${where}: inputSchema allows extra properties`,
    );
    assert.ok(tool.outputSchema, `${where}: no outputSchema`);
    for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
      assert.equal(typeof tool.annotations?.[hint], "boolean", `${where}: annotations.${hint} missing`);
    assert.ok(tool.binding, `${where}: no binding`);
    assert.ok(tool.policy?.kind, `${where}: no policy.kind`);
  }
});

test("hints agree with behaviour: read-only tools never destroy, network tools are open-world and cached", () => {
  for (const tool of tools) {
    const a = tool.annotations ?? {};
    if (a.readOnlyHint) assert.equal(a.destructiveHint, false, `${tool.name}: read-only yet destructive`);
    const reachesNetwork =
      tool.binding?.type === "http" || (tool.binding?.type === "sandbox" && tool.binding.capabilities?.fetch);
    assert.equal(
      a.openWorldHint,
      Boolean(reachesNetwork),
      `${tool.name}: openWorldHint does not match its binding`,
    );
    if (isOffline(tool))
      assert.equal(tool.policy?.kind, "compute", `${tool.name}: offline tool not kind compute`);
    // A cache keys on the arguments, so a tool that takes a password must not have one.
    const takesSecret = Object.hasOwn((tool.inputSchema.properties as object | undefined) ?? {}, "password");
    const publicReadOnly = tool.binding?.type === "sandbox" && reachesNetwork && a.readOnlyHint;
    if (publicReadOnly && !takesSecret)
      assert.ok(tool.policy?.cache, `${tool.name}: read-only network tool without a cache`);
    if (takesSecret) assert.equal(tool.policy?.cache, undefined, `${tool.name}: caches passwords`);
  }
});

test("a retried write is safe: writes that retry either are idempotent or carry a required idempotency key", () => {
  for (const tool of tools.filter((t) => t.annotations?.readOnlyHint === false)) {
    const key = tool.policy?.retry?.idempotencyKey;
    const retries = tool.policy?.retry?.retries ?? 0;
    if (key) {
      const required = (tool.inputSchema.required as string[] | undefined) ?? [];
      assert.ok(required.includes(key), `${tool.name}: idempotency key ${key} is not a required argument`);
    }
    if (retries > 0 && !key)
      assert.equal(tool.annotations?.idempotentHint, true, `${tool.name}: retries a non-idempotent write`);
    if (!tool.annotations?.idempotentHint)
      assert.equal(retries, 0, `${tool.name}: retries without being idempotent`);
  }
  const refund = tools.find((t) => t.name === "refund_order");
  assert.equal(refund?.policy?.retry?.idempotencyKey, "idempotency_key");
  assert.equal(refund?.annotations?.destructiveHint, true);
});

test("shop API tools take their base URL and key from the environment and fill every URL parameter", () => {
  const http = tools.filter((t) => t.binding?.type === "http");
  assert.ok(http.length >= 20, `only ${http.length} shop API tools`);
  for (const tool of http) {
    if (tool.binding?.type !== "http") continue;
    assert.ok(
      tool.binding.url.startsWith("{env.SWITCHBOARD_SHOP_API_URL}/"),
      `${tool.name}: url ${tool.binding.url}`,
    );
    assert.equal(tool.binding.headers?.Authorization, "Bearer {env.SWITCHBOARD_SHOP_API_KEY}", tool.name);
    const required = (tool.inputSchema.required as string[] | undefined) ?? [];
    const properties = Object.keys((tool.inputSchema.properties as object | undefined) ?? {});
    for (const [, param] of tool.binding.url.matchAll(/\{(?!env\.)([^}]+)\}/g))
      assert.ok(required.includes(param as string), `${tool.name}: URL parameter ${param} is not required`);
    for (const template of Object.values(tool.binding.query ?? {}))
      for (const [, param] of template.matchAll(/\{(?!env\.)([^}]+)\}/g))
        assert.ok(
          properties.includes(param as string),
          `${tool.name}: query parameter ${param} is not an input`,
        );
    if (tool.binding.body)
      assert.ok(required.includes(tool.binding.body), `${tool.name}: body ${tool.binding.body} not required`);
  }
});

test("an internet tool's failures are classified so the dispatcher retries, falls back and serves stale", () => {
  const internet = tools.filter((t) => t.binding?.type === "sandbox" && t.binding.capabilities?.fetch);
  assert.ok(internet.length >= 10, `only ${internet.length} internet tools`);
  // What the sandbox raises when a tool fails after its ctx.fetch could not connect or got a server error:
  // the parent records the transport's fault (never the tool's text), and the dispatcher reads only that.
  const unreachable = new SandboxError(
    "runtime",
    "Error: could not reach wttr.in (offline or blocked?): fetch https://wttr.in/Oslo: getaddrinfo ENOTFOUND wttr.in",
    { upstream: { code: "ECONNREFUSED" } },
  );
  const serverError = new SandboxError("runtime", "Error: api.frankfurter.app answered HTTP 503", {
    upstream: { status: 503 },
  });
  // The same words with no fault recorded are the tool's own text, which a caller's input can shape.
  const echoed = new SandboxError("runtime", "Error: api.frankfurter.app answered HTTP 503 overloaded");
  const badInput = new SandboxError(
    "runtime",
    'Error: base must be a 3-letter ISO 4217 currency code, got "EURO"',
  );
  for (const tool of internet) {
    assert.equal(classify(unreachable, tool.policy?.errors).class, "connection", tool.name);
    assert.equal(classify(serverError, tool.policy?.errors).class, "connection", tool.name);
    assert.notEqual(classify(echoed, tool.policy?.errors).class, "connection", tool.name);
    assert.notEqual(classify(badInput, tool.policy?.errors).class, "connection", tool.name);
  }
});

test("every sandboxed tool file, primary or fallback, passes the sandbox's static policy", async () => {
  let checked = 0;
  for (const tool of tools) {
    for (const binding of [tool.binding, ...(tool.policy?.fallback ?? [])]) {
      if (binding?.type !== "sandbox" || !binding.file) continue;
      const code = await readFile(binding.file, "utf8");
      assert.deepEqual(checkCode(code, tool.name), [], `${binding.file} breaks the policy`);
      checked++;
    }
  }
  assert.ok(checked >= 40, `only ${checked} sandbox files checked`);
});

test("the refund tool says what the README's agent loop asks for", () => {
  const refund = tools.find((t) => t.name === "refund_order");
  assert.ok(refund);
  assert.match(refund.description, /money back/);
  assert.ok(refund.examples?.some((e) => /money back/i.test(e)));
});
