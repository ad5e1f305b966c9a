// One agent key opening more MCP sessions than the service keeps (1,000) must not end another key's
// session: the bound holds per key. Raw Streamable HTTP requests on the real service.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fixtureTools } from "./fixture-tools.ts";
import { type Service, startService, writeCatalog } from "./harness.ts";

const FLOODER = "agent-flood-1";
const VICTIM = "agent-flood-2";
const BOUND = 1_000;
let service: Service;

before(async () => {
  service = await startService({
    catalog: await writeCatalog(fixtureTools("http://127.0.0.1:9")),
    env: { SWITCHBOARD_AGENT_KEYS: `${FLOODER},${VICTIM}`, SWITCHBOARD_RATE_LIMIT: "100000" },
  });
});

after(async () => {
  await service?.stop();
});

const headers = (key: string, session?: string) => ({
  authorization: `Bearer ${key}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
});

async function initialize(key: string): Promise<string> {
  const response = await fetch(`${service.url}/mcp`, {
    method: "POST",
    headers: headers(key),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "flood", version: "1" },
      },
    }),
  });
  await response.text();
  const session = response.headers.get("mcp-session-id");
  assert.ok(session, `initialize answered ${response.status}`);
  return session;
}

async function listTools(key: string, session: string): Promise<number> {
  const response = await fetch(`${service.url}/mcp`, {
    method: "POST",
    headers: headers(key, session),
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
  });
  await response.text();
  return response.status;
}

test("a key that opens more than 1,000 MCP sessions ends only its own oldest", async () => {
  const victim = await initialize(VICTIM);
  assert.equal(await listTools(VICTIM, victim), 200);
  const flood: string[] = [];
  for (let batch = 0; batch < (BOUND + 10) / 10; batch++)
    flood.push(...(await Promise.all(Array.from({ length: 10 }, () => initialize(FLOODER)))));
  assert.equal(await listTools(VICTIM, victim), 200, "the other key's session was ended");
  assert.equal(await listTools(FLOODER, flood[0] as string), 404, "the flooder's oldest session went first");
  assert.equal(await listTools(FLOODER, flood.at(-1) as string), 200);
});
