import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  formatDefinition,
  fromStrictArguments,
  providerToolName,
  strictSchema,
} from "../../src/app/formats.ts";
import { loadCatalog, type Tool } from "../../src/catalog/index.ts";
import { strictBreaches } from "./strict-rules.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const tool: Tool = {
  name: "billing.refund order",
  title: "Refund",
  description: "Refund an order",
  annotations: { readOnlyHint: false },
  inputSchema: {
    type: "object",
    properties: {
      order_id: { type: "string" },
      reason: { type: "string", enum: ["damaged", "late"] },
      lines: {
        type: "array",
        items: {
          type: "object",
          properties: { sku: { type: "string" }, qty: { type: "integer", default: 1 } },
          required: ["sku"],
        },
      },
      note: { description: "free text, any type" },
    },
    required: ["order_id"],
  },
};

test("provider names keep valid names and replace other characters", () => {
  assert.equal(providerToolName("get_weather-v2"), "get_weather-v2");
  assert.equal(providerToolName("billing.refund order"), "billing_refund_order");
  assert.equal(providerToolName("x".repeat(80)).length, 64);
});

test("openai strict format: every property required, optional ones nullable, no extra keys anywhere", () => {
  const definition = formatDefinition(tool, "openai") as {
    type: string;
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, checked field by field by the assertions
    function: { name: string; strict: boolean; parameters: Record<string, any> };
  };
  assert.equal(definition.type, "function");
  assert.equal(definition.function.name, "billing_refund_order");
  assert.equal(definition.function.strict, true);
  const p = definition.function.parameters;
  assert.equal(p.additionalProperties, false);
  assert.deepEqual(p.required, ["order_id", "reason", "lines", "note"]);
  assert.equal(p.properties.order_id.type, "string");
  assert.deepEqual(p.properties.reason.type, ["string", "null"]);
  assert.deepEqual(p.properties.reason.enum, ["damaged", "late", null]);
  // Any type: asked for as JSON text, nullable since optional.
  assert.deepEqual(p.properties.note.type, ["string", "null"]);
  const item = p.properties.lines.anyOf ?? p.properties.lines;
  assert.deepEqual(item.type, ["array", "null"]);
  assert.equal(item.items.additionalProperties, false);
  assert.deepEqual(item.items.required, ["sku", "qty"]);
  assert.deepEqual(item.items.properties.qty.type, ["integer", "null"]);
  assert.equal("default" in item.items.properties.qty, false);
});

test("a value strict mode cannot describe is asked for as JSON text and decoded back", () => {
  for (const freeForm of [{ type: "object" }, { type: "array" }, {}, { type: ["object", "string"] }])
    assert.deepEqual(
      strictSchema({ type: "object", properties: { v: freeForm }, required: ["v"] }).properties,
      {
        v: { type: "string", description: "Give it as JSON text." },
      },
    );
  const schema = { type: "object", properties: { v: { type: "object" } } };
  assert.deepEqual(fromStrictArguments(schema, { v: '{"a":[1]}' }), { v: { a: [1] } });
  assert.deepEqual(fromStrictArguments(schema, { v: null }), {});
  const either = { type: "object", properties: { v: { type: ["object", "string"] } } };
  assert.deepEqual(fromStrictArguments(either, { v: "plain" }), { v: "plain" });
  assert.deepEqual(fromStrictArguments(either, { v: "[1]" }), { v: [1] });
  // A closed object without properties is exactly {}: strict mode says that as it is.
  assert.deepEqual(strictSchema({ type: "object", additionalProperties: false }), {
    type: "object",
    properties: {},
    required: [],
    additionalProperties: false,
  });
});

test("unions become anyOf branches, oneOf becomes anyOf, allOf is merged, other keywords go to the description", () => {
  const union = strictSchema({
    type: "object",
    properties: { n: { type: ["integer", "string"], minimum: 1, maxLength: 3 } },
    required: ["n"],
  }) as { properties: { n: { anyOf: Record<string, unknown>[] } } };
  assert.deepEqual(union.properties.n.anyOf, [
    { minimum: 1, type: "integer" },
    { description: "(maxLength: 3)", type: "string" },
  ]);
  const composed = strictSchema({
    type: "object",
    properties: {
      one: { oneOf: [{ type: "string" }, { type: "number" }] },
      all: { allOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "number" } } }] },
    },
    required: ["one", "all"],
  }) as { properties: Record<string, Record<string, unknown>> };
  assert.deepEqual(composed.properties.one, { anyOf: [{ type: "string" }, { type: "number" }] });
  assert.deepEqual(composed.properties.all?.required, ["a", "b"]);
  assert.equal(composed.properties.all?.additionalProperties, false);
});

test("every bundled tool meets OpenAI strict mode's rules in both OpenAI formats", async () => {
  const tools = await loadCatalog(join(ROOT, "catalog"));
  assert.ok(tools.length >= 70, `${tools.length} bundled tools`);
  for (const tool of tools) {
    const chat = formatDefinition(tool, "openai") as { function: { parameters: Record<string, unknown> } };
    assert.deepEqual(strictBreaches(chat.function.parameters), [], `openai ${tool.name}`);
    const responses = formatDefinition(tool, "openai-responses") as { parameters: Record<string, unknown> };
    assert.deepEqual(strictBreaches(responses.parameters), [], `openai-responses ${tool.name}`);
  }
});

test("anthropic and mcp formats", () => {
  assert.deepEqual(formatDefinition(tool, "anthropic"), {
    name: "billing_refund_order",
    description: "Refund an order",
    input_schema: tool.inputSchema,
  });
  const mcp = formatDefinition(tool, "mcp");
  assert.equal(mcp.name, "billing.refund order");
  assert.equal(mcp.title, "Refund");
  assert.deepEqual(mcp.annotations, { readOnlyHint: false });
});
