import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { importFunctions, readCatalog, type Tool, validateAgainstSchema } from "../../src/catalog/index.ts";

const run = promisify(execFile);
const cli = join(import.meta.dirname, "../../bin/switchboard.js");
const fixture = (name: string) => join(import.meta.dirname, "../fixtures/functions", name);

function only(tools: Tool[], name: string): Tool {
  const found = tools.find((t) => t.name === name);
  assert.ok(found, `${name} is among ${tools.map((t) => t.name).join(", ")}`);
  return found;
}

test("OpenAI Chat Completions tools: the function becomes a tool; a built-in tool is left out, named", async () => {
  const { tools, warnings } = await importFunctions(fixture("openai-chat.json"));
  assert.deepEqual(
    tools.map((t) => t.name),
    ["get_weather"],
  );
  const weather = only(tools, "get_weather");
  assert.equal(weather.description, "Current weather for a city.");
  assert.deepEqual(validateAgainstSchema(weather.inputSchema, { city: "Paris" }), []);
  assert.notDeepEqual(validateAgainstSchema(weather.inputSchema, { city: "Paris", unit: "kelvin" }), []);
  assert.equal(weather.binding, undefined, "without --url a tool routes but does not run");
  assert.ok(warnings.some((w) => /tools\[1\]: a built-in "web_search" tool/.test(w)));
  assert.ok(warnings.some((w) => /no --url given/.test(w)));
});

test("OpenAI Responses and Anthropic tools; a name outside the tool-name rule is renamed, with a warning", async () => {
  const responses = await importFunctions(fixture("openai-responses.json"), {
    url: "http://127.0.0.1:1/fn/",
  });
  const ticket = only(responses.tools, "create_ticket");
  assert.deepEqual(ticket.binding, {
    type: "http",
    method: "POST",
    url: "http://127.0.0.1:1/fn/create_ticket",
    bodyFrom: "arguments",
  });
  assert.notDeepEqual(validateAgainstSchema(ticket.inputSchema, { title: "x", priority: 9 }), []);
  assert.deepEqual(responses.warnings, []);

  const anthropic = await importFunctions(fixture("anthropic.json"), { url: "http://127.0.0.1:1/fn" });
  const order = only(anthropic.tools, "lookup_order");
  assert.equal(
    (order.binding as { url: string }).url,
    "http://127.0.0.1:1/fn/lookup%20order",
    "calls use the definition's own name",
  );
  assert.deepEqual(validateAgainstSchema(order.inputSchema, { order_id: "AB-12" }), []);
  assert.ok(anthropic.warnings.some((w) => /"lookup order": renamed lookup_order/.test(w)));
  assert.ok(anthropic.warnings.some((w) => /\[1\]: not a function definition/.test(w)));
});

test("BFCL's Python type names become JSON Schema, one warning per change; unknown required names dropped", async () => {
  const { tools, warnings } = await importFunctions(fixture("bfcl.jsonl"));
  assert.equal(tools.length, 1, "the second definition of a name is left out");
  const area = only(tools, "geometry.rectangle_area");
  const schema = area.inputSchema as Record<string, Record<string, Record<string, unknown>>>;
  assert.equal(area.inputSchema.type, "object");
  assert.equal(schema.properties?.length?.type, "number");
  assert.equal(schema.properties?.corner?.type, "array");
  assert.deepEqual(schema.properties?.corner?.items, { type: "number" });
  assert.equal(schema.properties?.extra?.type, undefined, "any: no type");
  assert.deepEqual(area.inputSchema.required, ["length", "width"]);
  assert.deepEqual(validateAgainstSchema(area.inputSchema, { length: 3, width: 4.5, extra: [1] }), []);
  const changes = warnings.filter((w) => w.includes("bfcl.jsonl:1"));
  for (const expected of [
    /parameters: the type "dict" became "object"/,
    /parameters.properties.length: the type "float" became "number"/,
    /parameters.properties.corner: the type "tuple" became "array"/,
    /parameters.properties.corner.items: the type "float" became "number"/,
    /parameters.properties.extra: the type "any" became any value \(no type\)/,
    /parameters.required: "height" named no property; dropped/,
  ])
    assert.ok(
      changes.some((w) => expected.test(w)),
      `${expected} among ${changes.join("\n")}`,
    );
  assert.equal(changes.length, 7, "one warning per change (width too), no more");
  assert.ok(warnings.some((w) => /bfcl.jsonl:2: function\[0\] .*defined earlier; left out/.test(w)));
});

test("a file that is not function definitions gets one error naming the file and the place", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sb-functions-"));
  try {
    await writeFile(join(dir, "broken.json"), '{"tools": [');
    await assert.rejects(importFunctions(join(dir, "broken.json")), /broken\.json: not JSON/);
    await writeFile(join(dir, "object.json"), '{"apis": []}');
    await assert.rejects(
      importFunctions(join(dir, "object.json")),
      /object\.json: expected a list of function/,
    );
    await writeFile(join(dir, "lines.jsonl"), '{"name": "a", "description": "b"}\n{oops\n');
    await assert.rejects(importFunctions(join(dir, "lines.jsonl")), /lines\.jsonl:2: not JSON/);
    await assert.rejects(importFunctions(join(dir, "missing.json")), /cannot read .*missing\.json: ENOENT/);
    await assert.rejects(
      importFunctions(fixture("bfcl.jsonl"), { url: "file:///etc" }),
      /--url "file:\/\/\/etc"/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("imported over the CLI with --url, a tool runs as POST <url>/<name> with its arguments as the JSON body", async () => {
  // A local HTTP server standing in for the functions' API.
  const received: { method?: string; url?: string; body: unknown }[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method, url: req.url, body: JSON.parse(body) });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ temperature: 21 }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const dir = await mkdtemp(join(tmpdir(), "sb-functions-cli-"));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fn`;
    const out = join(dir, "functions.json");
    const imported = await run(process.execPath, [
      cli,
      "catalog",
      "import",
      "functions",
      fixture("openai-chat.json"),
      "--url",
      url,
      "--out",
      out,
      "--json",
    ]);
    const report = JSON.parse(imported.stdout) as { tools: number; warnings: string[] };
    assert.equal(report.tools, 1);
    const catalog = await readCatalog(out);
    assert.deepEqual(catalog.problems, [], "the written file is a valid catalog");
    assert.ok(JSON.parse(await readFile(out, "utf8")));
    const executed = await run(process.execPath, [
      cli,
      "exec",
      "get_weather",
      "--args",
      '{"city":"Paris","unit":"celsius"}',
      "--catalog",
      out,
      "--data",
      join(dir, "data"),
      "--json",
    ]);
    assert.match(executed.stdout, /"temperature": ?21/);
    assert.deepEqual(received, [
      { method: "POST", url: "/fn/get_weather", body: { city: "Paris", unit: "celsius" } },
    ]);
  } finally {
    server.closeAllConnections();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("an http binding takes body or bodyFrom, not both: the catalog names the binding", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sb-functions-both-"));
  try {
    const binding = {
      type: "http",
      method: "POST",
      url: "http://127.0.0.1:1/x",
      body: "b",
      bodyFrom: "arguments",
    };
    const tool = { name: "both", description: "Both bodies", inputSchema: { type: "object" }, binding };
    await writeFile(join(dir, "both.json"), JSON.stringify([tool]));
    const report = await readCatalog(join(dir, "both.json"));
    assert.ok(
      report.problems.some((p) => /body.*bodyFrom.*not both/.test(p.message) && /binding/.test(p.path ?? "")),
      JSON.stringify(report.problems),
    );
    assert.equal(report.tools.length, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
