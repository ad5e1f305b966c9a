// Probes from outside, with one agent key against another, on the real service over HTTP and MCP: a call
// id another key chose, a cached answer computed from another session's context, and what an agent key
// may read of the catalog's wiring (binding, policy, provider ids) next to what a maintainer key reads.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { keyId } from "../../src/server/index.ts";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const MAINTAINER = "maint-cross-1";
const AGENTS = ["agent-cross-a", "agent-cross-b", "agent-cross-c"] as const;
const [ALICE, BOB, CAROL] = AGENTS;
const object = (properties: object = {}, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});

// Port 9 (discard) refuses connections: the http tool fails at once, so only its wiring matters here.
const WIRED_URL = "http://127.0.0.1:9/internal/v2/customers/{customer_id}";

let service: Service;

before(async () => {
  const catalog = await writeCatalog([
    {
      name: "customer_record",
      description: "Show a customer's record from the internal customer service.",
      annotations: { readOnlyHint: true },
      inputSchema: object({ customer_id: { type: "string" } }, ["customer_id"]),
      binding: {
        type: "http",
        method: "GET",
        url: WIRED_URL,
        headers: { "x-api-key": "{env.SB_CROSS_KEY}" },
      },
      policy: { timeoutMs: 2000, retry: { retries: 0 } },
    },
    {
      // Busy for a moment, so a second call can arrive while the first runs.
      name: "slow_echo",
      description: "Echo a text back after a moment.",
      annotations: { readOnlyHint: true },
      inputSchema: object({ text: { type: "string" } }, ["text"]),
      binding: {
        type: "sandbox",
        code: "async function slow_echo(args) { const t = Date.now(); while (Date.now() - t < 800) {} return { text: args.text }; }",
      },
    },
    {
      name: "sign_in",
      description: "Sign in as a user for this session.",
      annotations: { readOnlyHint: false, destructiveHint: false },
      inputSchema: object({ user: { type: "string" } }, ["user"]),
      binding: {
        type: "sandbox",
        context: { write: ["user"] },
        code: "async function sign_in(args, ctx) { ctx.setContext({ user: args.user }); return { signedIn: args.user }; }",
      },
    },
    {
      // Cached by its (empty) arguments, but its answer depends on the session's signed-in user.
      name: "my_inbox",
      description: "Show the signed-in user's private inbox.",
      annotations: { readOnlyHint: true },
      inputSchema: object(),
      policy: { cache: { ttlMs: 60_000 } },
      binding: {
        type: "sandbox",
        context: { read: ["user"] },
        code: "async function my_inbox(args, ctx) { return { inbox: 'mail of ' + (ctx.context.user ?? 'nobody') }; }",
      },
    },
  ]);
  service = await startService({
    catalog,
    env: {
      SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
      SWITCHBOARD_AGENT_KEYS: AGENTS.join(","),
      SB_CROSS_KEY: "cross-key-value",
    },
  });
});

after(async () => {
  await service?.stop();
});

async function execute(key: string, calls: object[], sessionId?: string) {
  const answer = await call(service, "POST", "/v1/execute", {
    key,
    body: sessionId ? { calls, sessionId } : { calls },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.results;
}

describe("call ids", () => {
  test("a call id another key is running gets that key's own call, not a share of the other's result", async () => {
    const first = execute(ALICE, [
      { id: "call-1", name: "slow_echo", arguments: { text: "alice's secret" } },
    ]);
    // Bob learns the id (it was in /v1/executions) and sends it while Alice's call runs.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = execute(BOB, [{ id: "call-1", name: "slow_echo", arguments: { text: "bob" } }]);
    const [[alice], [bob]] = await Promise.all([first, second]);
    assert.deepEqual(alice.output, { text: "alice's secret" });
    assert.equal(alice.id, "call-1");
    assert.deepEqual(bob.output, { text: "bob" }, "Bob got Alice's result");
    assert.equal(bob.id, "call-1", "the caller's own id comes back");
  });

  test("an agent key lists only its own executions; a maintainer key every key's, owner named", async () => {
    await execute(CAROL, [{ id: "carol-only", name: "slow_echo", arguments: { text: "c" } }]);
    const mine = (await call(service, "GET", "/v1/executions", { key: CAROL })).body.executions;
    assert.ok(mine.some((e: { id: string }) => e.id === "carol-only"));
    const theirs = (await call(service, "GET", "/v1/executions", { key: BOB })).body.executions;
    assert.ok(!theirs.some((e: { id: string }) => e.id === "carol-only"), "Bob sees Carol's call");
    assert.ok(theirs.every((e: { id: string }) => !e.id.includes("/")));
    const routed = await call(service, "POST", "/v1/route-and-execute", {
      key: CAROL,
      body: { query: "echo a text back", arguments: { text: "routed" } },
    });
    assert.equal(routed.body.status, "completed", JSON.stringify(routed.body));
    const listed = (await call(service, "GET", "/v1/executions", { key: CAROL })).body.executions;
    assert.ok(
      listed.some((e: { id: string }) => e.id === routed.body.result.id),
      "a routed call is the key's own",
    );
    const all = (await call(service, "GET", "/v1/executions", { key: MAINTAINER })).body.executions;
    assert.ok(all.some((e: { id: string }) => e.id === `${keyId("agent", CAROL)}/carol-only`));
  });
});

test("a cached answer computed from one session's context never reaches another session", async () => {
  await execute(ALICE, [{ id: "in-a", name: "sign_in", arguments: { user: "alice" } }], "s1");
  await execute(BOB, [{ id: "in-b", name: "sign_in", arguments: { user: "bob" } }], "s1");
  const [alice] = await execute(ALICE, [{ id: "inbox-a", name: "my_inbox", arguments: {} }], "s1");
  assert.deepEqual(alice.output, { inbox: "mail of alice" });
  const [bob] = await execute(BOB, [{ id: "inbox-b", name: "my_inbox", arguments: {} }], "s1");
  assert.deepEqual(bob.output, { inbox: "mail of bob" }, "Bob was served Alice's cached inbox");
  const [nobody] = await execute(CAROL, [{ id: "inbox-c", name: "my_inbox", arguments: {} }]);
  assert.deepEqual(nobody.output, { inbox: "mail of nobody" });
  // The same context still shares the entry: Alice's second read is the cached one.
  const [again] = await execute(ALICE, [{ id: "inbox-a2", name: "my_inbox", arguments: {} }], "s1");
  assert.deepEqual(again.output, { inbox: "mail of alice" });
  assert.equal(again.provenance.attempts, 0, "served from the cache");
});

describe("what each role sees of the wiring", () => {
  const wiring = /127\.0\.0\.1:9|internal\/v2|x-api-key|SB_CROSS_KEY/;

  test("GET /v1/tools/{name}: an agent key gets name, description and schemas; a maintainer key the binding", async () => {
    const agent = await call(service, "GET", "/v1/tools/customer_record", { key: ALICE });
    assert.equal(agent.status, 200);
    assert.doesNotMatch(JSON.stringify(agent.body), wiring);
    assert.deepEqual(Object.keys(agent.body).sort(), ["annotations", "description", "inputSchema", "name"]);
    assert.equal(agent.body.inputSchema.properties.customer_id.type, "string");
    const maintainer = await call(service, "GET", "/v1/tools/customer_record", { key: MAINTAINER });
    assert.equal(maintainer.body.binding.url, WIRED_URL);
    assert.equal(maintainer.body.policy.timeoutMs, 2000);
    const list = await call(service, "GET", "/v1/tools", { key: ALICE });
    assert.doesNotMatch(JSON.stringify(list.body), wiring);
  });

  test("breakers, executions and call provenance name providers by a hash for an agent key", async () => {
    const [result] = await execute(ALICE, [
      { id: "rec-1", name: "customer_record", arguments: { customer_id: "c1" } },
    ]);
    assert.equal(result.status, "failed");
    assert.doesNotMatch(JSON.stringify(result.provenance), wiring);
    assert.match(Object.keys(result.provenance.breakers)[0] ?? "", /^http:[0-9a-f]{12}$/);
    const breakers = (await call(service, "GET", "/v1/breakers", { key: ALICE })).body.breakers;
    assert.doesNotMatch(JSON.stringify(breakers), wiring);
    const label = breakers.find((b: { tool: string }) => b.tool === "customer_record").provider;
    assert.equal(label, Object.keys(result.provenance.breakers)[0], "one label for one provider");
    const executions = (await call(service, "GET", "/v1/executions", { key: ALICE })).body.executions;
    assert.doesNotMatch(JSON.stringify(executions), wiring);
    const full = (await call(service, "GET", "/v1/breakers", { key: MAINTAINER })).body.breakers;
    assert.ok(full.some((b: { provider: string }) => b.provider.includes("/internal/v2/customers/")));
  });

  test("an agent key's MCP call_tool result carries the same labels, and is listed as its own", async () => {
    const records = async () =>
      (await call(service, "GET", "/v1/executions", { key: BOB })).body.executions.filter(
        (e: { name: string }) => e.name === "customer_record",
      ).length;
    const before = await records();
    const client = new Client({ name: "cross-caller-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${BOB}` } },
      }),
    );
    try {
      const answer = await client.callTool({
        name: "call_tool",
        arguments: { name: "customer_record", arguments: { customer_id: "c2" } },
      });
      const [first] = answer.content as { text: string }[];
      const result = JSON.parse(first?.text ?? "null");
      assert.equal(result.name, "customer_record");
      // (The error message names the request it made: a known limit in SECURITY.md.)
      assert.doesNotMatch(JSON.stringify(result.provenance), wiring);
      assert.match(Object.keys(result.provenance.breakers)[0] ?? "", /^http:[0-9a-f]{12}$/);
      assert.equal(await records(), before + 1);
    } finally {
      await client.close();
    }
  });

  test("the OpenAPI document describes both views of a tool", async () => {
    const doc = (await call(service, "GET", "/openapi.json")).body;
    const schema = doc.paths["/v1/tools/{name}"].get.responses["200"].content["application/json"].schema;
    const text = JSON.stringify(schema);
    assert.match(text, /StoredTool/);
    assert.match(text, /AgentTool/);
    assert.ok(doc.components.schemas.AgentTool.properties.inputSchema);
    assert.equal(doc.components.schemas.AgentTool.properties.binding, undefined);
  });
});
