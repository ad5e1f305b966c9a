// The HTTP API of the real service (child process, ephemeral port, temporary data folder), driven over
// HTTP with two keys: an agent's and a maintainer's.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, test } from "node:test";
import { fixtureTools } from "./fixture-tools.ts";
import { call, type Service, type StandIn, startService, startStandIn, writeCatalog } from "./harness.ts";

const AGENT = "agent-secret-1";
const MAINTAINER = "maintainer-secret-1";
let service: Service;
let standIn: StandIn;
let catalog: string;
const env = {
  SWITCHBOARD_AGENT_KEYS: AGENT,
  SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
};

before(async () => {
  standIn = await startStandIn();
  catalog = await writeCatalog(fixtureTools(standIn.url));
  service = await startService({
    catalog,
    env: { ...env, SWITCHBOARD_LLM_BASE_URL: `${standIn.url}/llm`, SWITCHBOARD_LLM_MODEL: "stand-in" },
  });
});

after(async () => {
  await service?.stop();
  await standIn?.close();
});

const agent = (method: string, path: string, body?: unknown) =>
  call(service, method, path, { key: AGENT, ...(body === undefined ? {} : { body }) });
const maintainer = (method: string, path: string, body?: unknown) =>
  call(service, method, path, { key: MAINTAINER, ...(body === undefined ? {} : { body }) });

/** What a bad request must not change: the catalog and the execution history. */
async function state() {
  const tools = (await agent("GET", "/v1/tools")).body.tools.map(
    (t: { name: string; version: number }) => `${t.name}@${t.version}`,
  );
  const executions = (await agent("GET", "/v1/executions")).body.executions.length;
  return { tools: tools.sort(), executions };
}

test("binds to loopback, answers health, readiness and the OpenAPI document without a key", async () => {
  assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual((await call(service, "GET", "/healthz")).body, { status: "ok" });
  assert.deepEqual((await call(service, "GET", "/readyz")).body, { status: "ready" });
  const openapi = await call(service, "GET", "/openapi.json");
  assert.equal(openapi.body.openapi, "3.1.0");
  for (const path of [
    "/v1/route",
    "/v1/execute",
    "/v1/route-and-execute",
    "/v1/tools/{name}",
    "/v1/feedback",
  ])
    assert.ok(openapi.body.paths[path], `OpenAPI documents ${path}`);
  const body = openapi.body.paths["/v1/route"].post.requestBody.content["application/json"].schema;
  assert.deepEqual(body.required, ["query"]);
  assert.deepEqual(body.properties.format.enum, ["mcp", "openai", "openai-responses", "anthropic"]);
});

test("every response carries a request id, the caller's own when given", async () => {
  const mine = await call(service, "GET", "/healthz", { headers: { "x-request-id": "trace-me-42" } });
  assert.equal(mine.headers.get("x-request-id"), "trace-me-42");
  const generated = await call(service, "GET", "/healthz");
  assert.match(generated.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
  // The log line is written as the response goes out, so it may reach the pipe just after the answer.
  const deadline = Date.now() + 5000;
  while (!service.logs().includes('"reqId":"trace-me-42"') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.match(service.logs(), /"reqId":"trace-me-42","method":"GET","url":"\/healthz","status":200/);
});

test("missing, malformed and unknown keys get 401; an agent key cannot write the catalog (403)", async () => {
  const before = await state();
  const missing = await call(service, "POST", "/v1/route", { body: { query: "refund" } });
  assert.equal(missing.status, 401);
  assert.match(missing.body.error.message, /missing API key/);
  const malformed = await call(service, "GET", "/v1/tools", { headers: { authorization: "Token abc" } });
  assert.equal(malformed.status, 401);
  assert.match(malformed.body.error.message, /Bearer/);
  const unknown = await call(service, "GET", "/v1/tools", { key: "not-a-key" });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.error.message, "unknown API key");
  const forbidden = await agent("DELETE", "/v1/tools/add_numbers");
  assert.equal(forbidden.status, 403);
  assert.match(forbidden.body.error.message, /maintainer key/);
  const synth = await agent("POST", "/v1/tools/synthesize", {
    name: "x",
    description: "x",
    inputSchema: { type: "object" },
  });
  assert.equal(synth.status, 403);
  assert.deepEqual(await state(), before);
  assert.doesNotMatch(service.logs(), /not-a-key|agent-secret-1|maintainer-secret-1/);
});

test("route finds the refund tool and returns definitions in the requested format with the context saved", async () => {
  const mcp = await agent("POST", "/v1/route", { query: "I want my money back for order 1234", topK: 1 });
  assert.equal(mcp.status, 200);
  assert.equal(mcp.body.tools[0].name, "refund_order");
  assert.equal(mcp.body.format, "mcp");
  assert.deepEqual(mcp.body.tools[0].definition.inputSchema.required, ["order_id"]);
  const { returnedTokens, catalogTokens, savedTokens } = mcp.body.context;
  assert.ok(returnedTokens > 0 && catalogTokens > returnedTokens, JSON.stringify(mcp.body.context));
  assert.equal(savedTokens, catalogTokens - returnedTokens);

  const openai = await agent("POST", "/v1/route", { query: "refund order 1234", topK: 1, format: "openai" });
  const fn = openai.body.tools[0].definition;
  assert.equal(fn.type, "function");
  assert.equal(fn.function.strict, true);
  assert.deepEqual(fn.function.parameters.required, ["order_id", "amount"]);
  assert.deepEqual(fn.function.parameters.properties.amount.type, ["number", "null"]);

  const anthropic = await agent("POST", "/v1/route", {
    query: "search the archive",
    topK: 1,
    format: "anthropic",
  });
  assert.equal(anthropic.body.tools[0].definition.name, "slow_lookup");
  assert.ok(anthropic.body.tools[0].definition.input_schema);
});

test("execute runs calls in order through the dispatcher; a sanitised name from a route answer works too", async () => {
  const answer = await agent("POST", "/v1/execute", {
    calls: [
      { id: "c1", name: "add_numbers", arguments: { a: 2, b: 3 } },
      { id: "c2", name: "count_words", arguments: { text: "one two three" } },
      { id: "c3", name: "slow_lookup", arguments: { ms: 1 } },
    ],
  });
  assert.equal(answer.status, 200);
  assert.deepEqual(
    answer.body.results.map((r: { id: string; status: string }) => [r.id, r.status]),
    [
      ["c1", "completed"],
      ["c2", "completed"],
      ["c3", "completed"],
    ],
  );
  assert.deepEqual(answer.body.results[0].output, { sum: 5 });
  assert.equal(answer.body.results[1].output.words, 3);
  assert.equal(answer.body.results[2].name, "slow.lookup");
  assert.ok(answer.body.results[0].timing.totalMs >= 0);
  assert.ok(answer.body.results[0].provenance);
});

test("invalid arguments come back as a failed call with the schema feedback", async () => {
  const answer = await agent("POST", "/v1/execute", {
    calls: [{ id: "bad", name: "add_numbers", arguments: { a: "two" } }],
  });
  assert.equal(answer.status, 200);
  const [result] = answer.body.results;
  assert.equal(result.status, "failed");
  assert.equal(result.error.class, "schema");
  const paths = result.error.issues.map((i: { path: string }) => i.path).sort();
  assert.deepEqual(paths, ["a", "b"]);
});

/**
 * A POST that declares a body over the limit and sends only its start: the service refuses it by its declared
 * length, before reading it. Writing the whole body would race the refusal (the service may close the
 * connection while the client still writes, and fetch rejects the whole exchange on that write error).
 */
function postDeclaredTooLarge(
  path: string,
  bytes: number,
): Promise<{ status: number; body: { error: { message: string } } }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${service.url}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${AGENT}`,
        "content-type": "application/json",
        "content-length": bytes,
      },
    });
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.write(`{"query": "${"x".repeat(1024)}`);
  });
}

test("bad requests get the right status and a message naming the problem, and change nothing", async () => {
  const before = await state();
  const malformed = await call(service, "POST", "/v1/execute", { key: AGENT, body: '{"calls": [' });
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error.code, "malformed_json");
  assert.match(malformed.body.error.message, /not valid JSON/);

  const wrongType = await agent("POST", "/v1/route", { query: "refund", topK: "five" });
  assert.equal(wrongType.status, 400);
  assert.deepEqual(
    wrongType.body.error.issues.map((i: { path: string }) => i.path),
    ["body.topK"],
  );
  assert.match(wrongType.body.error.message, /body\.topK/);

  const nested = await agent("POST", "/v1/execute", { calls: [{ id: "x", name: 7 }] });
  assert.equal(nested.status, 400);
  assert.match(nested.body.error.message, /body\.calls\.0\.name/);

  const extra = await agent("POST", "/v1/route", { query: "refund", limit: 3 });
  assert.equal(extra.status, 400);
  assert.match(extra.body.error.message, /"limit"/);

  const huge = await postDeclaredTooLarge("/v1/route", 2 * 1024 * 1024);
  assert.equal(huge.status, 413);
  assert.match(huge.body.error.message, /larger than the limit of 1048576 bytes/);

  const notJson = await call(service, "POST", "/v1/route", {
    key: AGENT,
    body: "query=refund",
    headers: { "content-type": "text/plain" },
  });
  assert.equal(notJson.status, 415);

  const noSuchEndpoint = await agent("GET", "/v1/nothing");
  assert.equal(noSuchEndpoint.status, 404);
  assert.match(noSuchEndpoint.body.error.message, /GET \/v1\/nothing/);

  assert.equal((await agent("GET", "/v1/tools/launch_rocket")).status, 404);
  assert.equal((await maintainer("DELETE", "/v1/tools/launch_rocket")).status, 404);
  const badTool = await maintainer("PUT", "/v1/tools/broken", {
    description: "x",
    inputSchema: { type: "object", properties: { a: { type: "strin" } } },
  });
  assert.equal(badTool.status, 422);
  assert.ok(badTool.body.error.issues.some((i: { path: string }) => i.path.startsWith("inputSchema")));
  const unknownFeedback = await agent("POST", "/v1/feedback", {
    pairs: [{ query: "q", tool: "launch_rocket" }],
  });
  assert.equal(unknownFeedback.status, 404);

  assert.deepEqual(await state(), before);
});

test("route-and-execute: runs the best tool, returns schema feedback for bad arguments, a raised threshold forces no synthesis", async () => {
  const ran = await agent("POST", "/v1/route-and-execute", {
    query: "I want my money back for order 1234",
    arguments: { order_id: "1234" },
  });
  assert.equal(ran.status, 200);
  assert.equal(ran.body.status, "completed", JSON.stringify(ran.body));
  assert.equal(ran.body.tool, "refund_order");
  assert.deepEqual(
    ran.body.steps.map((s: { step: string }) => s.step),
    ["route", "arguments", "validate", "execute"],
  );
  assert.deepEqual(ran.body.result.output, { refunded: "1234" });
  assert.ok(standIn.refunds.includes("1234"));

  const invalid = await agent("POST", "/v1/route-and-execute", {
    query: "refund my order",
    arguments: { amount: -5 },
  });
  assert.equal(invalid.body.status, "invalid_arguments");
  const validate = invalid.body.steps.find((s: { step: string }) => s.step === "validate");
  assert.equal(validate.ok, false);
  assert.deepEqual(validate.issues.map((i: { path: string }) => i.path).sort(), ["amount", "order_id"]);
  assert.deepEqual(validate.inputSchema.required, ["order_id"]);

  // A raised threshold does not force synthesis while a tool (count_words, which takes `text`) matches at
  // the calibrated one; synthesis for agent keys is test/server/agent-synthesis.test.ts's.
  const raised = await agent("POST", "/v1/route-and-execute", {
    query: "how many words are in it",
    arguments: { text: "stressed" },
    threshold: 0.99,
  });
  assert.equal(raised.body.status, "no_match", JSON.stringify(raised.body));
  assert.deepEqual(
    raised.body.steps.map((s: { step: string; skipped?: string }) => s.skipped ?? s.step),
    ["route", "matched"],
  );
  assert.equal((await agent("GET", "/v1/tools/reverse_text")).status, 404, "nothing was synthesized");
});

test("tool CRUD re-indexes incrementally: a put tool is routed to, a deleted one is not", async () => {
  const tool = {
    description: "Translate a sentence into Klingon for Star Trek fans. Klingon translation.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    examples: ["say hello in Klingon", "translate to Klingon"],
    binding: { type: "sandbox", code: "async function to_klingon(args) { return { klingon: 'nuqneH' }; }" },
  };
  const put = await maintainer("PUT", "/v1/tools/to_klingon", tool);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.name, "to_klingon");
  const routed = await agent("POST", "/v1/route", { query: "how do I say hello in Klingon", topK: 1 });
  assert.equal(routed.body.tools[0].name, "to_klingon");
  const ran = await agent("POST", "/v1/execute", {
    calls: [{ id: "k", name: "to_klingon", arguments: { text: "hello" } }],
  });
  assert.deepEqual(ran.body.results[0].output, { klingon: "nuqneH" });
  assert.equal((await agent("GET", "/v1/tools/to_klingon")).body.description, tool.description);

  const mismatch = await maintainer("PUT", "/v1/tools/to_klingon", { ...tool, name: "other" });
  assert.equal(mismatch.status, 422);

  assert.equal((await maintainer("DELETE", "/v1/tools/to_klingon")).status, 200);
  assert.equal((await agent("GET", "/v1/tools/to_klingon")).status, 404);
  const after = await agent("POST", "/v1/route", { query: "how do I say hello in Klingon", topK: 5 });
  assert.ok(!after.body.tools.some((t: { name: string }) => t.name === "to_klingon"));
});

test("synthesize checks, tests and registers a tool that is then routed to and run; a policy breach is 422", async () => {
  const code = `async function roman_numeral(args) {
    const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"],
      [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
    let n = args.n;
    let roman = "";
    for (const [value, letters] of table) while (n >= value) { roman += letters; n -= value; }
    return { roman };
  }`;
  const made = await maintainer("POST", "/v1/tools/synthesize", {
    name: "roman_numeral",
    description: "Write an integer as a Roman numeral, e.g. 2024 as MMXXIV. Roman numerals converter.",
    inputSchema: {
      type: "object",
      properties: { n: { type: "integer", minimum: 1, maximum: 3999 } },
      required: ["n"],
    },
    code,
    examples: [{ arguments: { n: 2024 }, expect: { roman: "MMXXIV" } }],
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.equal(made.body.ok, true);
  assert.equal(made.body.tool.name, "roman_numeral");
  const routed = await agent("POST", "/v1/route", { query: "write 1999 in Roman numerals", topK: 1 });
  assert.equal(routed.body.tools[0].name, "roman_numeral");
  const ran = await agent("POST", "/v1/execute", {
    calls: [{ id: "r", name: "roman_numeral", arguments: { n: 1999 } }],
  });
  assert.deepEqual(ran.body.results[0].output, { roman: "MCMXCIX" });

  const written = await maintainer("POST", "/v1/tools/synthesize", {
    name: "mirror_text",
    description: "Mirror a text",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    examples: [{ arguments: { text: "abc" }, expect: { reversed: "cba" } }],
  });
  assert.equal(written.status, 200, JSON.stringify(written.body));
  assert.equal(written.body.tool.name, "mirror_text");

  const evil = await maintainer("POST", "/v1/tools/synthesize", {
    name: "evil",
    description: "Runs whatever it is given",
    inputSchema: { type: "object", properties: { js: { type: "string" } } },
    code: "async function evil(args) { return eval(args.js); }",
  });
  assert.equal(evil.status, 422);
  assert.equal(evil.body.ok, false);
  assert.equal(evil.body.stage, "static");
  assert.ok(evil.body.errors[0].line >= 1);
  assert.equal((await agent("GET", "/v1/tools/evil")).status, 404);
});

test("feedback: an agent key's pair is a vote, a maintainer's is learned at once", async () => {
  const pairs = [{ query: "sum these two", tool: "add_numbers" }];
  const vote = await agent("POST", "/v1/feedback", { pairs });
  assert.equal(vote.status, 200);
  assert.deepEqual(vote.body, { recorded: 1, learned: 0, pending: 1, ignored: 0 });
  const learned = await maintainer("POST", "/v1/feedback", { pairs });
  assert.deepEqual(learned.body, { recorded: 1, learned: 1, pending: 0, ignored: 0 });
});

test("metrics expose route latency, tool duration, breaker state and dispatcher counters", async () => {
  assert.equal((await call(service, "GET", "/metrics")).status, 401);
  const text = (await agent("GET", "/metrics")).body as string;
  assert.match(text, /switchboard_route_duration_seconds_count\{matched="true"\} [1-9]/);
  assert.match(
    text,
    /switchboard_tool_duration_seconds_count\{tool="add_numbers",status="completed"\} [1-9]/,
  );
  assert.match(text, /switchboard_breaker_state\{tool="refund_order",provider="http:[0-9a-f]{12}"\} 0/);
  assert.doesNotMatch(text, /127\.0\.0\.1|refunds\//, "no label carries a URL template");
  assert.match(text, /switchboard_tool_rejections_total/);
  assert.match(text, /switchboard_tool_retries_total/);
  assert.match(text, /switchboard_tool_fallbacks_total/);
  assert.match(text, /switchboard_process_resident_memory_bytes \d+/);
  const breakers = (await agent("GET", "/v1/breakers")).body.breakers;
  assert.ok(
    breakers.some((b: { tool: string; state: string }) => b.tool === "refund_order" && b.state === "closed"),
  );
});

test("SIGTERM drains an in-flight call, then the process exits 0", async () => {
  const inFlight = agent("POST", "/v1/execute", {
    calls: [{ id: "slow", name: "slow.lookup", arguments: { ms: 1500 } }],
  });
  await standIn.slowArrived(1500);
  const exit = service.stop();
  const answer = await inFlight;
  assert.equal(answer.status, 200);
  assert.equal(answer.body.results[0].status, "completed");
  assert.equal(await exit, 0);
  assert.match(service.logs(), /state persisted/);
});

test("a restart loads the persisted index warm, with the tools synthesized before it", async () => {
  assert.notEqual(service.child.exitCode, null, "the previous test stopped the service");
  service = await startService({ catalog, env, data: service.data });
  assert.match(service.logs(), /"action":"loaded"/);
  assert.equal((await agent("GET", "/v1/tools/roman_numeral")).status, 200);
  const routed = await agent("POST", "/v1/route", { query: "write 1999 in Roman numerals", topK: 1 });
  assert.equal(routed.status, 200, JSON.stringify(routed.body));
  assert.equal(routed.body.tools[0].name, "roman_numeral");
});
