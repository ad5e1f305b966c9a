// The form an elicitation asks with: each missing field's JSON Schema as one of the flat primitive fields
// MCP allows, or the reason no form can ask for it (then route_and_execute answers needs_input unasked).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ElicitRequestFormParamsSchema } from "@modelcontextprotocol/sdk/types.js";
import { formFor } from "../../src/server/elicitation.ts";

const missing = (field: string, schema: Record<string, unknown>) => ({
  field,
  schema,
  reason: "the request does not say",
});

test("primitive fields become form fields, every one required, within the SDK's own request schema", () => {
  const form = formFor([
    missing("email", { type: "string", format: "email", description: "Where to send it", default: "a@b.c" }),
    missing("iban", { type: "string", pattern: "^[A-Z]{2}", minLength: 15, maxLength: 100_000 }),
    missing("unit", { type: ["string", "null"], enum: ["km", "mi", null] }),
    missing("count", { type: "integer", minimum: 1, maximum: 10, title: "How many" }),
    missing("ratio", { type: ["number", "null"] }),
    missing("strict", { type: "boolean" }),
  ]);
  assert.notEqual(typeof form, "string");
  assert.deepEqual(form, {
    type: "object",
    properties: {
      email: {
        type: "string",
        title: "email",
        description: "Where to send it",
        maxLength: 4096,
        format: "email",
      },
      iban: { type: "string", title: "iban", minLength: 15, maxLength: 4096 },
      unit: { type: "string", title: "unit", enum: ["km", "mi"] },
      count: { type: "integer", title: "How many", minimum: 1, maximum: 10 },
      ratio: { type: "number", title: "ratio" },
      strict: { type: "boolean", title: "strict" },
    },
    required: ["email", "iban", "unit", "count", "ratio", "strict"],
  });
  const request = ElicitRequestFormParamsSchema.safeParse({ message: "?", requestedSchema: form });
  assert.equal(request.success, true, JSON.stringify(request.error?.issues));
});

test("a field no form can hold means no form at all, naming that field", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ type: "array", items: { type: "number" } }, /^numbers is of type array/],
    [{ type: "object" }, /^numbers is of type object/],
    [{ anyOf: [{ type: "string" }, { type: "number" }] }, /^numbers is not of one type/],
    [{ type: "integer", enum: [1, 2, 3] }, /^numbers is a choice of values other than text/],
  ];
  for (const [schema, reason] of cases) {
    const form = formFor([missing("zone", { type: "string" }), missing("numbers", schema)]);
    assert.equal(typeof form, "string");
    assert.match(form as string, reason);
  }
});
