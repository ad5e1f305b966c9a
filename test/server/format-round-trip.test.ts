// Every tool format, both ways, through the real HTTP service: the definitions /v1/route hands out in each
// convention, and the calls a model sends back in that convention to /v1/execute, including the nulls an
// OpenAI strict-mode model sends for the optional fields strict mode made required.
import assert from "node:assert/strict";
import { copyFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { strictBreaches } from "../app/strict-rules.ts";
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

/** A schema with every shape strict mode cannot take as it is: free keys, unions, oneOf, allOf, tuples. */
const awkwardSchema = {
  type: "object",
  properties: {
    document: { type: ["object", "array", "string", "number", "boolean", "null"], description: "any JSON" },
    headers: { type: "object", additionalProperties: { type: "string" } },
    anything: { description: "no type at all" },
    pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
    shape: {
      oneOf: [
        { type: "object", properties: { radius: { type: "number" } }, required: ["radius"] },
        { type: "object", properties: { side: { type: "number" } }, required: ["side"] },
      ],
    },
    merged: {
      allOf: [
        { type: "object", properties: { a: { type: "string", minLength: 2 } } },
        { properties: { b: { type: "integer", format: "int32" } }, required: ["b"] },
      ],
    },
    tags: { type: "array", items: { type: "string", maxLength: 20 }, uniqueItems: true },
    limit: { type: ["integer", "string"], minimum: 1, pattern: "^[0-9]+$" },
  },
  required: ["document"],
  additionalProperties: false,
};
const echo = (name: string) => `async function ${name}(args) { return { got: args }; }`;

test("every tool routed in the OpenAI strict formats meets strict mode's rules, API-put and synthesized ones included", async () => {
  const put = await call(service, "PUT", "/v1/tools/awkward_echo", {
    body: {
      description: "Echo an awkward JSON document back: awkward echo of documents, headers and shapes",
      inputSchema: awkwardSchema,
      binding: { type: "sandbox", code: echo("awkward_echo") },
    },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const made = await call(service, "POST", "/v1/tools/synthesize", {
    body: {
      name: "awkward_mirror",
      description: "Mirror an awkward JSON document back: awkward mirror of documents, headers and shapes",
      inputSchema: awkwardSchema,
      code: echo("awkward_mirror"),
      testArgs: { document: { a: 1 } },
    },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  for (const format of ["openai", "openai-responses"]) {
    const names = new Set<string>();
    for (const query of ["echo an awkward document", "mirror an awkward document", "url encode some text"]) {
      const routed = await call(service, "POST", "/v1/route", { body: { query, format, topK: 50 } });
      assert.equal(routed.status, 200, JSON.stringify(routed.body));
      for (const { name, definition } of routed.body.tools) {
        names.add(name);
        const parameters = format === "openai" ? definition.function.parameters : definition.parameters;
        assert.deepEqual(strictBreaches(parameters), [], `${format} ${name}`);
      }
    }
    for (const name of ["awkward_echo", "awkward_mirror", "url_codec"])
      assert.ok(names.has(name), `${format}: ${name} was routed`);
  }
});

test("a free-form value a strict-mode model sends as JSON text reaches the tool decoded", async () => {
  const routed = await call(service, "POST", "/v1/route", {
    body: { query: "echo an awkward document", format: "openai", topK: 50 },
  });
  const definition = routed.body.tools.find((t: { name: string }) => t.name === "awkward_echo")?.definition;
  assert.deepEqual(definition.function.parameters.properties.document.type, ["string", "null"]);
  const strictArguments = {
    document: JSON.stringify({ rows: [1, 2] }),
    headers: JSON.stringify({ accept: "text/plain" }),
    anything: "plain words",
    pair: null,
    shape: { radius: 2 },
    merged: { a: "xy", b: 3 },
    tags: ["x"],
    limit: 5,
  };
  const ran = await call(service, "POST", "/v1/execute", {
    body: {
      calls: [
        {
          id: "call_9",
          type: "function",
          function: { name: "awkward_echo", arguments: JSON.stringify(strictArguments) },
        },
      ],
    },
  });
  const [result] = ran.body.results;
  assert.equal(result.status, "completed", JSON.stringify(result));
  assert.deepEqual(result.output.got, {
    document: { rows: [1, 2] },
    headers: { accept: "text/plain" },
    anything: "plain words",
    shape: { radius: 2 },
    merged: { a: "xy", b: 3 },
    tags: ["x"],
    limit: 5,
  });
});
