// Issue 14 on the real service, server side: every error in the documented shape (Fastify's and Node's own
// included), bearer challenges, the failed-key throttle, /metrics behind a key without command lines or URL
// templates in its labels, and the DNS-rebinding defence (loopback Host/Origin without keys, Origin at /mcp).
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, test } from "node:test";
import { fixtureTools } from "./fixture-tools.ts";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const AGENT = "agent-hardening-1";
const MAINTAINER = "maintainer-hardening-1";
let keyed: Service;
let keyless: Service;

before(async () => {
  // Port 9 (discard) refuses connections: the http tools fail fast, which is all the breaker label needs.
  const catalog = await writeCatalog(fixtureTools("http://127.0.0.1:9"));
  [keyed, keyless] = await Promise.all([
    startService({
      catalog,
      env: { SWITCHBOARD_AGENT_KEYS: AGENT, SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER },
    }),
    startService({ catalog, env: { SWITCHBOARD_AGENT_KEYS: "", SWITCHBOARD_MAINTAINER_KEYS: "" } }),
  ]);
});

after(async () => {
  await Promise.all([keyed?.stop(), keyless?.stop()]);
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, checked field by field
  body: any;
}

/** A request with full control of the path and headers (Host included), which fetch does not give. */
function raw(
  service: Service,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Raw> {
  const { port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on("end", () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

function assertShape(answer: Raw, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body), ["error"], JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, code);
  assert.equal(typeof answer.body.error.message, "string");
  assert.ok(answer.body.error.message.length > 0);
}

test("every error has the documented shape, Fastify's and Node's own included", async () => {
  const key = { authorization: `Bearer ${AGENT}` };
  assertShape(await raw(keyed, "GET", "/v1/tools/%FF%FE", key), 400, "bad_url");
  assertShape(await raw(keyed, "GET", "/%FF%FE"), 400, "bad_url");
  const tooLong = await raw(keyed, "GET", `/v1/tools/${"a".repeat(129)}`, key);
  assertShape(tooLong, 414, "uri_too_long");
  assert.match(tooLong.body.error.message, /128 characters/);
  // 128 characters is a valid tool name: it is routed, and simply unknown.
  assertShape(await raw(keyed, "GET", `/v1/tools/${"a".repeat(128)}`, key), 404, "not_found");
  assertShape(await raw(keyed, "GET", "/no/such/endpoint"), 404, "not_found");
  assertShape(await raw(keyed, "PATCH", "/v1/tools/add_numbers", key), 405, "method_not_allowed");
  const json = { ...key, "content-type": "application/json" };
  assertShape(await raw(keyed, "POST", "/v1/route", json, "{not json"), 400, "malformed_json");
  assertShape(await raw(keyed, "POST", "/v1/route", json, ""), 400, "empty_body");
  const text = { ...key, "content-type": "text/plain" };
  assertShape(await raw(keyed, "POST", "/v1/route", text, "hello"), 415, "unsupported_media_type");
  assertShape(
    await raw(keyed, "POST", "/v1/route", json, '{"query": "x", "__proto__": {"a": 1}}'),
    400,
    "malformed_json",
  );
  // Node's parser refuses headers beyond its limit before Fastify sees the request.
  assertShape(
    await raw(keyed, "GET", "/healthz", { "x-filler": "x".repeat(20_000) }),
    431,
    "headers_too_large",
  );
});

test("a body nested past 64 levels is one 400 naming where, not a 500 from echoing it back", async () => {
  const json = { authorization: `Bearer ${AGENT}`, "content-type": "application/json" };
  // 200,000 levels fit in 1 MiB; route-and-execute echoed them in its answer and JSON.stringify overflowed.
  const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
  for (const [path, body] of [
    ["/v1/route-and-execute", `{"query": "add 2 and 3", "arguments": {"a": ${deep}}}`],
    ["/v1/execute", `{"calls": [{"id": "d", "name": "add_numbers", "arguments": {"a": ${deep}, "b": 1}}]}`],
  ] as const) {
    const answer = await raw(keyed, "POST", path, json, body);
    assertShape(answer, 400, "invalid_request");
    assert.match(
      answer.body.error.message,
      /body\.(calls\.0\.)?arguments\.a\.0\.0.*nested deeper than 64 levels/,
    );
  }
  const ok = `${"[".repeat(40)}1${"]".repeat(40)}`;
  const shallow = await raw(
    keyed,
    "POST",
    "/v1/execute",
    json,
    `{"calls": [{"id": "s", "name": "add_numbers", "arguments": {"a": ${ok}, "b": 1}}]}`,
  );
  assert.equal(shallow.status, 200, "40 levels are fine");
  assert.equal(shallow.body.results[0].error.class, "schema");
});

test("arguments with 60,000 unknown keys get at most 20 issues back, not a 3.4 MB answer", async () => {
  const json = { authorization: `Bearer ${AGENT}`, "content-type": "application/json" };
  const keys = Array.from({ length: 60_000 }, (_, i) => `"k${i}": 1`).join(",");
  const body = `{"calls": [{"id": "m", "name": "add_numbers", "arguments": {${keys}}}]}`;
  const answer = await raw(keyed, "POST", "/v1/execute", json, body);
  assert.equal(answer.status, 200);
  const { error } = answer.body.results[0];
  assert.equal(error.class, "schema");
  assert.equal(error.issues.length, 21);
  assert.match(error.issues[20].message, /^and \d+ more problems$/);
  assert.ok(JSON.stringify(answer.body).length < 10_000);
});

test("a 401 carries a Bearer challenge (RFC 6750): realm alone when no key came, the error when one did", async () => {
  const missing = await raw(keyed, "GET", "/v1/tools");
  assertShape(missing, 401, "unauthorized");
  assert.equal(missing.headers["www-authenticate"], 'Bearer realm="switchboard"');
  const unknown = await raw(keyed, "GET", "/v1/tools", { authorization: "Bearer not-a-key" });
  assertShape(unknown, 401, "unauthorized");
  assert.match(
    String(unknown.headers["www-authenticate"]),
    /^Bearer realm="switchboard", error="invalid_token"/,
  );
  const malformed = await raw(keyed, "GET", "/v1/tools", { authorization: "Basic abc" });
  assert.match(String(malformed.headers["www-authenticate"]), /error="invalid_request"/);
});

test("/metrics needs a key, and no label carries a URL template or a command line", async () => {
  assertShape(await raw(keyed, "GET", "/metrics"), 401, "unauthorized");
  const failed = await call(keyed, "POST", "/v1/execute", {
    key: AGENT,
    body: { calls: [{ id: "r", name: "refund_order", arguments: { order_id: "o-1" } }] },
  });
  assert.equal(failed.status, 200);
  const metrics = await call(keyed, "GET", "/metrics", { key: AGENT });
  assert.equal(metrics.status, 200);
  const breaker = /switchboard_breaker_state\{tool="refund_order",provider="([^"]+)"\}/.exec(metrics.body);
  assert.ok(breaker, "the called tool has a breaker gauge");
  assert.match(breaker[1] as string, /^http:[0-9a-f]{12}$/);
  assert.doesNotMatch(metrics.body, /127\.0\.0\.1:9|\/refunds\/|\{order_id\}/);
});

test("/mcp refuses a foreign Origin even with a valid key; its own origin passes", async () => {
  const { host } = new URL(keyed.url);
  const mcp = {
    authorization: `Bearer ${AGENT}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  // An initialize: /mcp keeps sessions, so a session's first request opens it.
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
  });
  assertShape(
    await raw(keyed, "POST", "/mcp", { ...mcp, origin: "http://evil.example" }, body),
    403,
    "forbidden_origin",
  );
  const own = await raw(keyed, "POST", "/mcp", { ...mcp, origin: `http://${host}` }, body);
  assert.equal(own.status, 200, JSON.stringify(own.body));
});

test("without keys, only loopback Host and Origin are served: a DNS-rebinding page cannot write the catalog", async () => {
  const { port } = new URL(keyless.url);
  const tool = JSON.stringify({
    description: "planted by a web page",
    inputSchema: { type: "object" },
    binding: { type: "sandbox", code: "async function planted() { return {}; }" },
  });
  const json = { "content-type": "application/json" };
  const rebound = { ...json, host: `attacker.example:${port}` };
  assertShape(await raw(keyless, "PUT", "/v1/tools/planted", rebound, tool), 403, "forbidden_host");
  assertShape(await raw(keyless, "POST", "/mcp", rebound, "{}"), 403, "forbidden_host");
  const foreignOrigin = { ...json, host: `127.0.0.1:${port}`, origin: "http://attacker.example" };
  assertShape(await raw(keyless, "PUT", "/v1/tools/planted", foreignOrigin, tool), 403, "forbidden_origin");
  assertShape(await raw(keyless, "GET", "/v1/tools", { origin: "null" }), 403, "forbidden_origin");
  assert.equal((await raw(keyless, "GET", "/v1/tools/planted")).status, 404, "nothing was stored");
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "127.0.0.2", "localhost"])
    assert.equal((await raw(keyless, "GET", "/v1/tools", { host })).status, 200, host);
  const local = await raw(keyless, "GET", "/v1/tools", { origin: "http://localhost:5173" });
  assert.equal(local.status, 200);
});

// Last: it locks 127.0.0.1 out of the keyed service for a minute.
test("ten wrong keys from one address refuse every key from it, valid ones included, with Retry-After", async () => {
  // The 401 test above sent two wrong keys (an unknown one and a malformed header): eight more fill the ten.
  for (let i = 0; i < 8; i++)
    assert.equal((await raw(keyed, "GET", "/v1/tools", { authorization: `Bearer guess-${i}` })).status, 401);
  for (const key of ["guess-8", AGENT, MAINTAINER]) {
    const refused = await raw(keyed, "GET", "/v1/tools", { authorization: `Bearer ${key}` });
    assertShape(refused, 429, "too_many_failed_keys");
    const retry = Number(refused.headers["retry-after"]);
    assert.ok(retry > 0 && retry <= 60, String(retry));
  }
  assert.equal((await raw(keyed, "GET", "/healthz")).status, 200, "health checks need no key");
});

test("SIGUSR1 does not open Node's inspector in the service", async () => {
  // Any process of the service's user may send it (an escaped sandbox host too); the inspector on
  // 127.0.0.1:9229 would then run whatever its client sends inside the service.
  keyed.child.kill("SIGUSR1");
  const deadline = Date.now() + 10_000;
  while (!/SIGUSR1 ignored/.test(keyed.logs()) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  assert.match(keyed.logs(), /SIGUSR1 ignored/);
  assert.doesNotMatch(keyed.logs(), /Debugger listening/);
  assert.equal((await raw(keyed, "GET", "/healthz")).status, 200);
});

test("a caller's x-request-id is kept only when it looks like an id", async () => {
  // It goes into every log line of the request and back in the answer.
  const forged = await raw(keyed, "GET", "/healthz", { "x-request-id": `${"x".repeat(2_000)} forged` });
  assert.match(String(forged.headers["x-request-id"]), /^[0-9a-f-]{36}$/);
  const plain = await raw(keyed, "GET", "/healthz", { "x-request-id": "trace-7.a:b" });
  assert.equal(plain.headers["x-request-id"], "trace-7.a:b");
});
