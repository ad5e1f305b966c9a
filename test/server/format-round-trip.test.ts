// Every tool format, both ways, through the real HTTP service: the definitions /v1/route hands out in each
// convention, and the calls a model sends back in that convention to /v1/execute, including the nulls an
// OpenAI strict-mode model sends for the optional fields strict mode made required.
import assert from "node:assert/strict";
import { copyFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { call, ROOT, type Service, startService, writeCatalog } from "./harness.ts";

let service: Service;

before(async () => {
  const catalog = await writeCatalog([
    {
      name: "url_codec",
      description: "Percent-encodes or decodes text for use in a URL (url encode, url decode, query strings)",
      inputSchema: {
        type: "object",
        properties: {
          action: { type: "string", enum: ["encode", "decode"] },
          text: { type: "string" },
          mode: { type: "string", enum: ["component", "full"], default: "component" },
          plus_as_space: { type: "boolean", default: true },
        },
        required: ["action", "text"],
        additionalProperties: false,
      },
      binding: { type: "sandbox", file: "url_codec.js" },
    },
  ]);
  // Sandboxed code must live inside its catalog's folder.
  await copyFile(join(ROOT, "catalog/tools/url_codec.js"), join(dirname(catalog), "url_codec.js"));
  service = await startService({ catalog });
});
after(() => service?.stop());

const wanted = { action: "encode", text: "a b&c" };
const nulls = { ...wanted, mode: null, plus_as_space: null };

/** The call a model sends back, in each convention, for the definition it was given. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON definitions, checked field by field by the assertions
const modelCalls: Record<string, (definition: Record<string, any>) => object> = {
  mcp: (d) => ({ id: "c1", name: d.name, arguments: wanted }),
  openai: (d) => ({
    id: "call_1",
    type: "function",
    function: { name: d.function.name, arguments: JSON.stringify(nulls) },
  }),
  "openai-responses": (d) => ({
    type: "function_call",
    call_id: "fc_1",
    name: d.name,
    arguments: JSON.stringify(nulls),
  }),
  anthropic: (d) => ({ type: "tool_use", id: "toolu_1", name: d.name, input: wanted }),
};

for (const [format, callFor] of Object.entries(modelCalls)) {
  test(`${format}: the routed definition's call comes back and runs`, async () => {
    const routed = await call(service, "POST", "/v1/route", {
      body: { query: "url encode some text", format },
    });
    assert.equal(routed.status, 200, JSON.stringify(routed.body));
    const definition = routed.body.tools[0]?.definition;
    assert.ok(definition, "a definition was routed");
    if (format.startsWith("openai")) {
      const parameters = format === "openai" ? definition.function.parameters : definition.parameters;
      assert.deepEqual(
        parameters.required,
        ["action", "text", "mode", "plus_as_space"],
        "strict: all required",
      );
      assert.deepEqual(parameters.properties.plus_as_space.type, ["boolean", "null"]);
    }
    if (format === "openai-responses")
      assert.equal(definition.function, undefined, "the Responses shape is flat");
    const executed = await call(service, "POST", "/v1/execute", { body: { calls: [callFor(definition)] } });
    assert.equal(executed.status, 200, JSON.stringify(executed.body));
    const [result] = executed.body.results;
    assert.equal(result.status, "completed", JSON.stringify(result));
    assert.equal(result.output.result, "a%20b%26c");
  });
}

test("a null for a required field is still an error, and so is OpenAI arguments text that is not JSON", async () => {
  const required = await call(service, "POST", "/v1/execute", {
    body: {
      calls: [
        {
          id: "call_2",
          type: "function",
          function: { name: "url_codec", arguments: JSON.stringify({ ...nulls, text: null }) },
        },
      ],
    },
  });
  assert.equal(required.body.results?.[0]?.status, "failed", JSON.stringify(required.body));
  const broken = await call(service, "POST", "/v1/execute", {
    body: { calls: [{ id: "c", type: "function", function: { name: "url_codec", arguments: "{oops" } }] },
  });
  assert.equal(broken.status, 400, JSON.stringify(broken.body));
});
