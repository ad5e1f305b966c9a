// Context through sessions, against the real service: a "set my location" tool (an http binding that
// declares a response field as a context change) and a "local weather" tool (an http binding that reads
// {context.location} into its query), both served by a local stand-in provider on loopback. A change is
// seen by the next batch of the same session, never by another session, another key or a call without a
// session; over HTTP (/v1/execute, /v1/route-and-execute) and over MCP sessions.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const AGENT = "session-agent";
const OTHER_AGENT = "session-agent-2";

let provider: Server;
let service: Service;

before(async () => {
  // The stand-in provider: POST /locations echoes the place it was given, GET /weather names the city it
  // was asked about (null when the query has none).
  provider = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (url.pathname === "/locations") {
        const place = JSON.parse(body || "{}") as { city?: string };
        res.end(JSON.stringify({ saved: { city: place.city ?? null }, message: "location saved" }));
      } else res.end(JSON.stringify({ city: url.searchParams.get("city"), sky: "clear" }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  const catalog = await writeCatalog([
    {
      name: "set_location",
      description: "Remember the user's location for the following calls",
      inputSchema: {
        type: "object",
        properties: { place: { type: "object", properties: { city: { type: "string" } } } },
        required: ["place"],
      },
      binding: {
        type: "http",
        method: "POST",
        url: `${origin}/locations`,
        body: "place",
        context: { write: { location: "saved.city" } },
      },
    },
    {
      name: "local_weather",
      description: "The weather at the user's remembered location",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      binding: {
        type: "http",
        method: "GET",
        url: `${origin}/weather`,
        query: { city: "{context.location}" },
        context: { read: ["location"] },
      },
    },
    {
      name: "count_visits",
      description: "Counts this session's visits in a sandboxed tool",
      inputSchema: { type: "object", properties: {} },
      binding: {
        type: "sandbox",
        code: `async function count_visits(args, ctx) {
          const visits = (ctx.context.visits ?? 0) + 1;
          ctx.setContext({ visits });
          return { visits, location: ctx.context.location ?? null };
        }`,
        context: { read: ["visits"], write: ["visits"] },
      },
    },
  ]);
  service = await startService({
    catalog,
    env: {
      SWITCHBOARD_AGENT_KEYS: `${AGENT},${OTHER_AGENT}`,
      SWITCHBOARD_EGRESS_ALLOW: "127.0.0.1",
    },
  });
});

after(async () => {
  await service?.stop();
  provider?.close();
});

async function execute(calls: { name: string; arguments?: object }[], sessionId?: string, key = AGENT) {
  const answer = await call(service, "POST", "/v1/execute", {
    key,
    body: { calls: calls.map((c, i) => ({ id: `c${i}`, ...c })), ...(sessionId ? { sessionId } : {}) },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  for (const result of answer.body.results)
    assert.equal(result.status, "completed", JSON.stringify(result.error));
  return answer.body.results as { output: { city?: string | null }; provenance: { warnings?: string[] } }[];
}

const cityIn = async (sessionId?: string, key = AGENT) =>
  (await execute([{ name: "local_weather" }], sessionId, key))[0]?.output.city;

const setLocation = (city: string) => ({ name: "set_location", arguments: { place: { city } } });

test("HTTP: a change is seen by the next batch of the same session only", async () => {
  await execute([setLocation("Lisbon")], "trip-1");
  assert.equal(await cityIn("trip-1"), "Lisbon");
  assert.equal(await cityIn("trip-2"), null, "another session");
  assert.equal(await cityIn(undefined), null, "no session");
  assert.equal(await cityIn("trip-1", OTHER_AGENT), null, "the same session id under another key");

  // Inside a batch every call sees the context as the batch started; the change lands after it.
  const [, during] = await execute([setLocation("Porto"), { name: "local_weather" }], "trip-1");
  assert.equal(during?.output.city, "Lisbon");
  assert.equal(await cityIn("trip-1"), "Porto");

  // Two changes in one batch apply in call order.
  await execute([setLocation("Faro"), setLocation("Braga")], "trip-1");
  assert.equal(await cityIn("trip-1"), "Braga");
});

test("HTTP: a sandboxed tool reads ctx.context and its ctx.setContext reaches the next batch", async () => {
  const visits = async (sessionId: string) =>
    (await execute([{ name: "count_visits" }], sessionId))[0]?.output as unknown as {
      visits: number;
      location: unknown;
    };
  await execute([setLocation("Sintra")], "sandboxed");
  assert.deepEqual(await visits("sandboxed"), { visits: 1, location: null }, "location is not declared");
  assert.equal((await visits("sandboxed")).visits, 2);
  assert.equal((await visits("other")).visits, 1);
  assert.equal((await visits("sandboxed")).visits, 3);
});

test("HTTP: a context that would outgrow its bound keeps its old value, and the batch is told", async () => {
  await execute([setLocation("Evora")], "big");
  const [result] = await execute([setLocation("x".repeat(20_000))], "big");
  assert.match(result?.provenance.warnings?.join(" ") ?? "", /not kept.*over the bound/);
  assert.equal(await cityIn("big"), "Evora");
});

test("HTTP: route-and-execute reads the session's context too", async () => {
  await execute([setLocation("Coimbra")], "routed");
  const answer = await call(service, "POST", "/v1/route-and-execute", {
    key: AGENT,
    body: { query: "the weather at my remembered location", threshold: 0, sessionId: "routed" },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.tool, "local_weather", JSON.stringify(answer.body.steps));
  assert.equal(answer.body.result.output.city, "Coimbra", JSON.stringify(answer.body));
  const refused = await call(service, "POST", "/v1/execute", {
    key: AGENT,
    body: { calls: [{ id: "a", name: "local_weather" }], sessionId: "no spaces allowed" },
  });
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.body), /sessionId/);
});

async function mcpSession(key: string): Promise<Client> {
  const client = new Client({ name: "session-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function callTool(client: Client, name: string, args: object = {}) {
  const result = await client.callTool({ name: "call_tool", arguments: { name, arguments: args } });
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first?.text ?? "null").output;
}

test("MCP: each MCP session has its own context; another session does not see it", async () => {
  const first = await mcpSession(AGENT);
  const second = await mcpSession(AGENT);
  const sessionId = (first.transport as StreamableHTTPClientTransport | undefined)?.sessionId;
  assert.ok(sessionId, "the service gave the MCP session an id");
  try {
    await callTool(first, "set_location", { place: { city: "Oslo" } });
    assert.equal((await callTool(first, "local_weather")).city, "Oslo");
    assert.equal((await callTool(second, "local_weather")).city, null);
    await callTool(second, "set_location", { place: { city: "Bergen" } });
    assert.equal((await callTool(first, "local_weather")).city, "Oslo");
    assert.equal((await callTool(second, "local_weather")).city, "Bergen");
    // A session id is the key's own: another key naming it is told it does not exist.
    const listTools = (key: string) =>
      fetch(`${service.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    const own = await listTools(AGENT);
    assert.equal(own.status, 200, await own.text());
    assert.equal((await listTools(OTHER_AGENT)).status, 404);
  } finally {
    await first.close();
    await second.close();
  }
});
