// Session contexts across two replicas sharing one Redis: a change made through A is read through B in
// the same session and by no other session; batches of one session through both replicas at once lose no
// change; the size bound holds; and while Redis is away a session's calls answer 503 session_unavailable
// (calls without a session still run) until it is back. The tools are sandboxed: they read ctx.context
// and change it with ctx.setContext.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { down, up } from "../../scripts/services.ts";
import { connectRedis, sessionRedisKey, startRedis } from "../../src/hot-state/index.ts";
import { keyId } from "../../src/server/index.ts";
import { writeCatalog } from "../server/harness.ts";
import {
  type Cluster,
  call,
  readyz,
  type Service,
  skipWithoutServices,
  startCluster,
  waitFor,
} from "./harness.ts";

const agent = "agent-key";
const otherAgent = "agent-key-2";
const env = { SWITCHBOARD_AGENT_KEYS: `${agent},${otherAgent}` };
const SLOTS = Array.from({ length: 12 }, (_, i) => `slot${i}`);

const catalogTools = [
  {
    name: "remember_note",
    description: "Remember a note for the rest of this session.",
    inputSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
    binding: {
      type: "sandbox",
      code: "async function remember_note(args, ctx) { ctx.setContext({ note: args.note }); return { saved: true }; }",
      context: { write: ["note"] },
    },
  },
  {
    name: "recall_note",
    description: "Recall the note remembered earlier in this session.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: {} },
    binding: {
      type: "sandbox",
      code: "async function recall_note(args, ctx) { return { note: ctx.context.note ?? null }; }",
      context: { read: ["note"] },
    },
  },
  {
    name: "fill_slot",
    description: "Fill one numbered slot of this session.",
    inputSchema: { type: "object", properties: { slot: { type: "number" } }, required: ["slot"] },
    binding: {
      type: "sandbox",
      code: "async function fill_slot(args, ctx) { ctx.setContext({ ['slot' + args.slot]: args.slot }); return { filled: args.slot }; }",
      context: { write: SLOTS },
    },
  },
  {
    name: "list_slots",
    description: "List the filled slots of this session.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: {} },
    binding: {
      type: "sandbox",
      code: "async function list_slots(args, ctx) { return { slots: Object.keys(ctx.context).sort() }; }",
      context: { read: SLOTS },
    },
  },
];

interface Result {
  status: string;
  output?: { note?: string | null; slots?: string[] };
  provenance: { warnings?: string[] };
}

async function execute(
  service: Service,
  name: string,
  args: object,
  sessionId?: string,
  key = agent,
): Promise<Result> {
  const answer = await call(service, "POST", "/v1/execute", {
    key,
    body: {
      calls: [{ id: crypto.randomUUID(), name, arguments: args }],
      ...(sessionId ? { sessionId } : {}),
    },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const [result] = answer.body.results as Result[];
  assert.equal(result?.status, "completed", JSON.stringify(result));
  return result as Result;
}

const noteIn = async (service: Service, sessionId?: string, key = agent) =>
  (await execute(service, "recall_note", {}, sessionId, key)).output?.note;

async function mcpClient(service: Service): Promise<Client> {
  const client = new Client({ name: "replica-session-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${agent}` } },
    }),
  );
  return client;
}

describe("session contexts across replicas sharing Redis", { skip: skipWithoutServices() }, () => {
  let cluster: Cluster;
  let a: Service;
  let b: Service;

  before(async () => {
    cluster = await startCluster(await writeCatalog(catalogTools), env, 2);
    [a, b] = cluster.replicas as [Service, Service];
  });
  after(async () => {
    await cluster?.stop();
  });

  test("a note set through A is read through B in the same session, and by no other", async () => {
    await execute(a, "remember_note", { note: "gate 12" }, "trip");
    assert.equal(await noteIn(b, "trip"), "gate 12");
    assert.equal(await noteIn(b, "other-trip"), null, "another session");
    assert.equal(await noteIn(b, "trip", otherAgent), null, "the same session id under another key");
    assert.equal(await noteIn(b), null, "no session");
    await execute(b, "remember_note", { note: "gate 14" }, "trip");
    assert.equal(await noteIn(a, "trip"), "gate 14");
  });

  test("batches of one session through both replicas at once lose no change", async () => {
    await Promise.all(SLOTS.map((_, i) => execute(i % 2 ? a : b, "fill_slot", { slot: i }, "busy")));
    const { output } = await execute(a, "list_slots", {}, "busy");
    assert.deepEqual(output?.slots, [...SLOTS].sort());
  });

  test("a change over the bound is refused through either replica; the old context stays", async () => {
    await execute(a, "remember_note", { note: "small" }, "big");
    const refused = await execute(b, "remember_note", { note: "x".repeat(20_000) }, "big");
    assert.match(refused.provenance.warnings?.join(" ") ?? "", /not kept.*over the bound of 16384/);
    assert.equal(await noteIn(a, "big"), "small");
  });

  test("an MCP session keeps its context in Redis; its transport stays on its replica", async () => {
    const client = await mcpClient(a);
    const callTool = async (name: string, args: object = {}) => {
      const result = await client.callTool({ name: "call_tool", arguments: { name, arguments: args } });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const [first] = result.content as { type: string; text: string }[];
      return JSON.parse(first?.text ?? "null").output;
    };
    try {
      await callTool("remember_note", { note: "over MCP" });
      assert.deepEqual(await callTool("recall_note"), { note: "over MCP" });
      // Scoped as the MCP server scopes it: the key's id (its fingerprint), then the MCP session id.
      const mcpSession = (client.transport as StreamableHTTPClientTransport | undefined)?.sessionId;
      const redis = connectRedis(cluster.urls.redisUrl);
      await startRedis(redis);
      try {
        const stored = await redis.hgetall(sessionRedisKey(`${keyId("agent", agent)}/mcp:${mcpSession}`));
        assert.deepEqual(stored, { '"note"': '"over MCP"' });
      } finally {
        redis.disconnect();
      }
      // The transport stays on A: B does not know the MCP session (docs/deploy.md: sticky routing).
      const onB = await fetch(`${b.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${agent}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": mcpSession as string,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      assert.equal(onB.status, 404);
      assert.equal(await noteIn(a, "trip"), "gate 14", "the HTTP session is untouched");
    } finally {
      await client.close();
    }
  });

  test("Redis away: a session's calls answer 503 session_unavailable, others run; then recovery", async (t) => {
    await execute(a, "remember_note", { note: "before the restart" }, "restart");
    const client = await mcpClient(a);
    await down(cluster.folder, "redis");
    try {
      await waitFor(
        "A reports redis down",
        async () => (await readyz(a)).body.stores?.redis === "down",
        10_000,
      );
      const refused = await call(a, "POST", "/v1/execute", {
        key: agent,
        body: { calls: [{ id: "r1", name: "recall_note", arguments: {} }], sessionId: "restart" },
      });
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, "session_unavailable");
      assert.match(refused.body.error.message, /session store \(Redis\) is unavailable/);
      const routed = await call(a, "POST", "/v1/route-and-execute", {
        key: agent,
        body: { query: "recall the note remembered earlier", threshold: 0, sessionId: "restart" },
      });
      assert.equal(routed.status, 503, JSON.stringify(routed.body));
      assert.equal(routed.body.error.code, "session_unavailable");
      assert.equal(await noteIn(b), null, "a call without a session still runs");
      const overMcp = await client.callTool({
        name: "call_tool",
        arguments: { name: "recall_note", arguments: {} },
      });
      assert.equal(overMcp.isError, true);
      assert.match(JSON.stringify(overMcp.content), /session store \(Redis\) is unavailable/);
    } finally {
      await client.close();
      await up(cluster.folder, "redis");
    }
    const backMs = await waitFor(
      "A and B report redis up",
      async () =>
        (await readyz(a)).body.stores?.redis === "up" && (await readyz(b)).body.stores?.redis === "up",
      10_000,
    );
    // The test's Redis keeps nothing on disk (scripts/services.ts), so the session starts afresh.
    assert.equal(await noteIn(b, "restart"), null);
    await execute(a, "remember_note", { note: "after the restart" }, "restart");
    assert.equal(await noteIn(b, "restart"), "after the restart");
    t.diagnostic(`session calls worked again ${backMs} ms after Redis started`);
  });
});
