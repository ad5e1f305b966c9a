import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDefinition, providerToolName, strictSchema } from "../../src/app/formats.ts";
import type { Tool } from "../../src/catalog/index.ts";

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
  assert.deepEqual(p.properties.note.anyOf[1], { type: "null" });
  const item = p.properties.lines.anyOf ?? p.properties.lines;
  assert.deepEqual(item.type, ["array", "null"]);
  assert.equal(item.items.additionalProperties, false);
  assert.deepEqual(item.items.required, ["sku", "qty"]);
  assert.deepEqual(item.items.properties.qty.type, ["integer", "null"]);
  assert.equal("default" in item.items.properties.qty, false);
});

test("an object without properties becomes an empty closed object", () => {
  assert.deepEqual(strictSchema({ type: "object" }), {
    type: "object",
    additionalProperties: false,
    properties: {},
    required: [],
  });
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
