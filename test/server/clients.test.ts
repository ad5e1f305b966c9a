// What off-the-shelf clients send, answered as they expect: a JSON content type on a bodiless DELETE (the
// Python MCP SDK closes its session so), 405 with Allow, malformed JSON named once with its place, "did you
// mean" for a misspelled tool, a batch where an unknown tool fails alone, and an OpenAPI document with an
// operationId per operation that Redocly's recommended rules pass without a warning.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixtureTools } from "./fixture-tools.ts";
import {
  call,
  ROOT,
  type Service,
  type StandIn,
  startService,
  startStandIn,
  tempDir,
  writeCatalog,
} from "./harness.ts";

let standIn: StandIn;
let service: Service;
const JSON_TYPE = { "content-type": "application/json" };

before(async () => {
  standIn = await startStandIn();
  service = await startService({ catalog: await writeCatalog(fixtureTools(standIn.url)) });
});

after(async () => {
  await service?.stop();
  await standIn?.close();
});

test("an MCP client that sends a JSON content type on every request closes its session with a bodiless DELETE", async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
    requestInit: { headers: JSON_TYPE },
  });
  const client = new Client({ name: "json-everywhere", version: "1.0.0" });
  await client.connect(transport);
  assert.ok((await client.listTools()).tools.some((tool) => tool.name === "call_tool"));
  const session = transport.sessionId;
  assert.ok(session);
  // The SDK throws when the DELETE is refused.
  await transport.terminateSession();
  const after = await call(service, "POST", "/mcp", {
    headers: { "mcp-session-id": session, accept: "application/json, text/event-stream" },
    body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
  });
  assert.equal(after.status, 404, "the session is gone");
  await client.close();
});

test("DELETE /v1/tools/{name} with a JSON content type and no body deletes; a body-taking route says it needs one", async () => {
  const put = await call(service, "PUT", "/v1/tools/temporary_tool", {
    body: {
      description: "A tool that exists only to be deleted again by the bodiless DELETE test.",
      inputSchema: { type: "object", properties: {} },
      binding: { type: "sandbox", code: "async function temporary_tool() { return {}; }" },
    },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const deleted = await call(service, "DELETE", "/v1/tools/temporary_tool", { headers: JSON_TYPE });
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assert.deepEqual(deleted.body, { deleted: "temporary_tool" });
  const listed = await call(service, "GET", "/v1/tools", { headers: JSON_TYPE });
  assert.equal(listed.status, 200);
  const noBody = await call(service, "POST", "/v1/route", { headers: JSON_TYPE });
  assert.equal(noBody.status, 400);
  assert.equal(noBody.body.error.code, "empty_body");
});

test("a wrong method on a known path is 405 with Allow; an unknown path stays 404", async () => {
  const wrong = await call(service, "GET", "/v1/route");
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "POST");
  assert.equal(wrong.body.error.code, "method_not_allowed");
  assert.match(wrong.body.error.message, /GET is not allowed on \/v1\/route; use POST/);
  const tool = await call(service, "PATCH", "/v1/tools/add_numbers");
  assert.equal(tool.status, 405);
  assert.equal(tool.headers.get("allow"), "GET, HEAD, PUT, DELETE");
  assert.equal((await call(service, "GET", "/v1/nothing")).status, 404);
});

test("malformed JSON is one message naming where the parser stopped", async () => {
  const broken = await call(service, "POST", "/v1/route", { body: '{"query": "add", "topK": }' });
  assert.equal(broken.status, 400);
  assert.equal(broken.body.error.code, "malformed_json");
  assert.match(
    broken.body.error.message,
    /^the body is not valid JSON: .*value expected at position 25 \(line 1, column 26\)$/,
  );
  assert.equal(broken.body.error.message.match(/JSON/g).length, 1, "said once");
  const cut = await call(service, "POST", "/v1/route", { body: '{"query": "add' });
  assert.match(cut.body.error.message, /unexpected end of string at position 10/);
});

test("a misspelled tool gets the nearest names; in a batch it fails alone and the other calls run", async () => {
  const one = await call(service, "GET", "/v1/tools/add_number");
  assert.equal(one.status, 404);
  assert.match(one.body.error.message, /unknown tool "add_number" \(did you mean "add_numbers"\?\)/);
  const batch = await call(service, "POST", "/v1/execute", {
    body: {
      // HTTP tools on the local stand-in: the claim is about the batch, not the sandbox's pace.
      calls: [
        { id: "first", name: "refund_order", arguments: { order_id: "batch-1" } },
        { id: "typo", name: "count_word", arguments: { text: "a b" } },
        { id: "last", name: "refund_order", arguments: { order_id: "batch-2" } },
      ],
    },
  });
  assert.equal(batch.status, 200, JSON.stringify(batch.body));
  const [first, typo, last] = batch.body.results;
  assert.equal(first.status, "completed", JSON.stringify(first));
  assert.equal(last.status, "completed", JSON.stringify(last));
  assert.deepEqual(standIn.refunds.filter((id) => id.startsWith("batch-")).sort(), ["batch-1", "batch-2"]);
  assert.equal(typo.status, "failed");
  assert.equal(typo.error.class, "unknown_tool");
  assert.match(typo.error.message, /unknown tool "count_word" \(did you mean "count_words"\?\)/);
  const feedback = await call(service, "POST", "/v1/feedback", {
    body: { pairs: [{ query: "sum", tool: "add_numbrs" }] },
  });
  assert.equal(feedback.status, 404);
  assert.match(feedback.body.error.message, /pairs\.0\.tool "add_numbrs" \(did you mean "add_numbers"\?\)/);
});

test("the served OpenAPI document names every operation once and passes Redocly's recommended rules", async () => {
  const document = (await call(service, "GET", "/openapi.json")).body;
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId?: string }>).map(([method, op]) => ({
      where: `${method.toUpperCase()} ${path}`,
      id: op.operationId,
    })),
  );
  for (const { where, id } of operations)
    assert.match(id ?? "", /^[a-z][A-Za-z]+$/, `${where} has an operationId`);
  assert.equal(new Set(operations.map((o) => o.id)).size, operations.length, "operationIds are unique");
  for (const method of ["get", "post", "delete"]) assert.ok(document.paths["/mcp"][method], `/mcp ${method}`);

  const file = join(await tempDir("openapi"), "openapi.json");
  await writeFile(file, JSON.stringify(document));
  const report = await redoclyLint(file);
  assert.deepEqual(
    report.problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`),
    [],
  );
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
});

/** `redocly lint --format=json` (the CLI from devDependencies, with its telemetry off) and its report. */
async function redoclyLint(file: string) {
  const cli = join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");
  const child = spawn(process.execPath, [cli, "lint", file, "--format=json"], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const json = stdout.slice(stdout.indexOf("{"), stdout.lastIndexOf("}") + 1);
  assert.ok(json, `redocly printed no report (exit ${code}):\n${stdout}\n${stderr}`);
  return JSON.parse(json);
}
