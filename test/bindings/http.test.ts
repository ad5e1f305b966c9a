import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { type BindingError, createProvider, HttpStatusError } from "../../src/bindings/index.ts";
import { type HttpBinding, importOpenApi, type Tool } from "../../src/catalog/index.ts";
import { classify } from "../../src/dispatch/index.ts";
import { createEgressPolicy } from "../../src/egress/index.ts";
import type { Sandbox } from "../../src/synth/index.ts";

const SECRET = "s3cr3t-token-value";
process.env.SB_TEST_TOKEN = SECRET;
delete process.env.SB_TEST_MISSING;

// A local HTTP server standing in for a provider's API.
let server: Server;
let base: string;
const requestsSeen: IncomingMessage[] = [];

function reply(res: import("node:http").ServerResponse, status: number, body: unknown, headers = {}) {
  const json = typeof body !== "string";
  res.writeHead(status, { "content-type": json ? "application/json" : "text/plain", ...headers });
  res.end(json ? JSON.stringify(body) : body);
}

before(async () => {
  server = createServer(async (req, res) => {
    requestsSeen.push(req);
    const url = new URL(req.url ?? "/", "http://stand-in");
    let body = "";
    for await (const chunk of req) body += chunk;
    const [, first, second] = url.pathname.split("/");
    if (first === "echo") {
      return reply(res, 200, {
        rawPath: req.url?.split("?")[0],
        query: [...url.searchParams],
        authorization: req.headers.authorization ?? null,
        requestId: req.headers["x-request-id"] ?? null,
        apiKey: req.headers["x-api-key"] ?? null,
        contentType: req.headers["content-type"] ?? null,
        body: body ? JSON.parse(body) : null,
        data: { items: ["a", "b"] },
      });
    }
    if (first === "status") return reply(res, Number(second), "slow down please", { "retry-after": "7" });
    if (first === "leak") return reply(res, 401, `bad token ${req.headers.authorization}`);
    if (first === "text") return reply(res, 200, "hello");
    if (first === "bad-json") return reply(res, 200, "{", { "content-type": "application/json" });
    if (first === "slow") return; // never answers: the client's timeout or abort ends it
    reply(res, 404, { error: "no such route" });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

// The stand-in listens on loopback, which tools reach only when the operator allows it.
const noSandbox = { sandbox: {} as Sandbox, egress: createEgressPolicy({ allow: ["127.0.0.1"] }) };

function provider(binding: Omit<HttpBinding, "type" | "method"> & { method?: HttpBinding["method"] }) {
  const full: HttpBinding = { type: "http", method: "GET", ...binding, url: `${base}${binding.url}` };
  const tool: Tool = {
    name: "stand_in_tool",
    description: "A tool",
    inputSchema: { type: "object" },
    binding: full,
  };
  return createProvider(full, tool, noSandbox);
}

function call(
  p: ReturnType<typeof provider>,
  args: Record<string, unknown>,
  signal = new AbortController().signal,
) {
  return p.invoke(args, { signal, callId: "c1", context: {} }) as Promise<Record<string, unknown>>;
}

test("path, query and headers are filled from the arguments, URL-encoded, and absent optional ones left out", async () => {
  const p = provider({
    url: "/echo/{id}",
    query: { tag: "{tags}", limit: "{limit}", q: "name:{name}" },
    headers: { "x-request-id": "{requestId}" },
  });
  const out = await call(p, { id: "a b/c?", tags: ["x", "y z"], name: "rex" });
  assert.equal(out.rawPath, "/echo/a%20b%2Fc%3F");
  assert.deepEqual(out.query, [
    ["tag", "x"],
    ["tag", "y z"],
    ["q", "name:rex"],
  ]);
  assert.equal(out.requestId, null);
  const withHeader = await call(p, { id: 1, limit: 5, requestId: "r-1" });
  assert.deepEqual(withHeader.query, [["limit", "5"]]);
  assert.equal(withHeader.requestId, "r-1");
});

test("a missing path argument is a clear error before any request", async () => {
  const before = requestsSeen.length;
  await assert.rejects(call(provider({ url: "/echo/{id}" }), {}), (error: BindingError) => {
    assert.equal(error.code, "ERR_MISSING_ARGUMENT");
    assert.equal(error.message, "tool stand_in_tool: the URL needs the argument(s) id");
    return true;
  });
  assert.equal(requestsSeen.length, before);
});

test("{env.NAME} reads a secret from the environment; a missing one names the variable and is not retried", async () => {
  const out = await call(
    provider({ url: "/echo/1", headers: { authorization: "Bearer {env.SB_TEST_TOKEN}" } }),
    {},
  );
  assert.equal(out.authorization, `Bearer ${SECRET}`);
  await assert.rejects(
    call(provider({ url: "/echo/1", headers: { authorization: "Bearer {env.SB_TEST_MISSING}" } }), {}),
    (error: BindingError) => {
      assert.equal(error.code, "ERR_MISSING_SECRET");
      assert.match(error.message, /tool stand_in_tool: the environment variable SB_TEST_MISSING is not set/);
      assert.ok(["unknown", "fatal"].includes(classify(error).class), "the dispatcher does not retry it");
      return true;
    },
  );
});

test("secrets never appear in an error, even when the provider echoes them back", async () => {
  await assert.rejects(
    call(
      provider({ url: "/leak/{env.SB_TEST_TOKEN}", headers: { authorization: "{env.SB_TEST_TOKEN}" } }),
      {},
    ),
    (error: HttpStatusError) => {
      assert.equal(error.status, 401);
      assert.ok(!JSON.stringify({ ...error, message: error.message }).includes(SECRET), error.message);
      assert.match(error.body, /bad token \*\*\*/);
      assert.match(error.message, /\/leak\/\*\*\*: HTTP 401/);
      return true;
    },
  );
});

test("a non-2xx answer carries status, headers for Retry-After and a body excerpt", async () => {
  await assert.rejects(call(provider({ url: "/status/503" }), {}), (error: HttpStatusError) => {
    assert.ok(error instanceof HttpStatusError);
    assert.equal(error.status, 503);
    assert.equal(error.headers["retry-after"], "7");
    assert.equal(error.body, "slow down please");
    assert.match(
      error.message,
      /^GET http:\/\/127\.0\.0\.1:\d+\/status\/503: HTTP 503 Service Unavailable: slow down/,
    );
    // A 503 is an unavailable server, not a rate limit; its Retry-After is still honoured.
    assert.deepEqual(classify(error), { class: "connection", retryAfterMs: 7000 });
    return true;
  });
  await assert.rejects(call(provider({ url: "/status/404" }), {}), { status: 404 });
});

test("the body argument goes out as JSON; JSON, text and empty answers are parsed; select picks a dot path", async () => {
  const posted = await call(provider({ method: "POST", url: "/echo/1", body: "pet" }), {
    pet: { name: "Rex" },
  });
  assert.deepEqual(posted.body, { name: "Rex" });
  assert.equal(posted.contentType, "application/json");
  assert.equal(await call(provider({ url: "/text" }), {}), "hello");
  assert.equal(await call(provider({ method: "HEAD", url: "/echo/1" }), {}), null);
  assert.equal(await call(provider({ url: "/echo/1", select: "data.items.1" }), {}), "b");
  await assert.rejects(call(provider({ url: "/echo/1", select: "data.nothing" }), {}), {
    code: "ERR_BAD_RESPONSE",
  });
  await assert.rejects(call(provider({ url: "/bad-json" }), {}), { code: "ERR_BAD_RESPONSE" });
});

test("bodyFrom arguments sends every argument the templates do not place as one JSON object", async () => {
  const posted = await call(
    provider({ method: "POST", url: "/echo/{id}", query: { v: "{version}" }, bodyFrom: "arguments" }),
    { id: "7", version: 2, city: "Paris", nested: { days: [1, 2] } },
  );
  assert.equal(posted.rawPath, "/echo/7");
  assert.deepEqual(posted.query, [["v", "2"]]);
  assert.deepEqual(posted.body, { city: "Paris", nested: { days: [1, 2] } });
  assert.equal(posted.contentType, "application/json");
  const empty = await call(provider({ method: "POST", url: "/echo/{id}", bodyFrom: "arguments" }), {
    id: "7",
  });
  assert.deepEqual(empty.body, {}, "an API that takes a body gets one even when nothing is left for it");
});

test("the binding's timeout ends a request that gets no answer, as a retryable ETIMEDOUT", async () => {
  await assert.rejects(
    call(provider({ url: "/slow", timeoutMs: 100 }), {}),
    (error: Error & { code: string }) => {
      assert.equal(error.code, "ETIMEDOUT");
      assert.match(error.message, /no answer within 100 ms/);
      assert.equal(classify(error).class, "connection");
      return true;
    },
  );
});

test("the caller's AbortSignal ends a request in flight with the signal's reason", async () => {
  const controller = new AbortController();
  const seen = requestsSeen.length;
  const pending = call(provider({ url: "/slow" }), {}, controller.signal);
  while (requestsSeen.length === seen) await new Promise((resolve) => setTimeout(resolve, 5));
  const reason = new Error("batch cancelled");
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
});

test("a refused connection keeps its socket error code", async () => {
  const closed = createServer();
  closed.listen(0, "127.0.0.1");
  await once(closed, "listening");
  const port = (closed.address() as AddressInfo).port;
  closed.close();
  await once(closed, "close");
  const full: HttpBinding = { type: "http", method: "GET", url: `http://127.0.0.1:${port}/x` };
  const p = createProvider(full, { name: "t", description: "d", inputSchema: { type: "object" } }, noSandbox);
  await assert.rejects(call(p, {}), (error: Error & { code: string }) => {
    assert.equal(error.code, "ECONNREFUSED");
    assert.equal(classify(error).class, "connection");
    return true;
  });
});

test("operations imported from OpenAPI run end to end through their http bindings", async () => {
  const { tools } = await importOpenApi(new URL("../fixtures/petstore.yaml", import.meta.url).pathname);
  process.env.PETSTORE_API_KEY = "pk-123";
  const run = (name: string, args: Record<string, unknown>) => {
    const tool = tools.find((t) => t.name === name) as Tool;
    const binding = tool.binding as HttpBinding;
    const local = { ...binding, url: binding.url.replace("https://eu.petstore.example/v1", `${base}/echo`) };
    return createProvider(local, tool, noSandbox).invoke(args, {
      signal: new AbortController().signal,
      callId: "c",
      context: {},
    }) as Promise<Record<string, unknown>>;
  };
  const shown = await run("showPetById", { petId: 7 });
  assert.equal(shown.rawPath, "/echo/pets/7");
  assert.equal(shown.apiKey, "pk-123");
  const created = await run("createPet", { body: { name: "Rex" } });
  assert.deepEqual(created.body, { name: "Rex" });
  const listed = await run("listPets", { limit: 2, tags: ["dog", "cat"] });
  assert.deepEqual(listed.query, [
    ["limit", "2"],
    ["tags", "dog"],
    ["tags", "cat"],
  ]);
  assert.equal(listed.apiKey, null, "a public operation sends no key");
});

test("an imported API without a server URL runs against the origin set in the environment", async () => {
  const { tools } = await importOpenApi(
    new URL("../fixtures/todo-openapi-3.1.json", import.meta.url).pathname,
  );
  process.env.TODO_API_BASE_URL = `${base}/echo`;
  process.env.TODO_API_KEY = "tk-1";
  const create = tools.find((t) => t.name === "createTodo") as Tool;
  const out = (await createProvider(create.binding as HttpBinding, create, noSandbox).invoke(
    { body: { title: "Buy milk" } },
    { signal: new AbortController().signal, callId: "c", context: {} },
  )) as Record<string, unknown>;
  assert.equal(out.rawPath, "/echo/todos");
  assert.deepEqual(out.query, [["api_key", "tk-1"]]);
  assert.deepEqual(out.body, { title: "Buy milk" });
});
