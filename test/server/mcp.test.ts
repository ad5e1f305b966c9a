// The MCP server driven through the SDK's own Client: over stdio (`switchboard mcp`) and over Streamable
// HTTP (/mcp of `switchboard serve`).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixtureTools } from "./fixture-tools.ts";
import {
  CLI,
  ROOT,
  type Service,
  type StandIn,
  startService,
  startStandIn,
  tempDir,
  writeCatalog,
} from "./harness.ts";

let standIn: StandIn;
let catalog: string;
let service: Service;
let stdio: Client;

before(async () => {
  standIn = await startStandIn();
  catalog = await writeCatalog(fixtureTools(standIn.url));
  service = await startService({
    catalog,
    env: { SWITCHBOARD_AGENT_KEYS: "mcp-agent", SWITCHBOARD_MAINTAINER_KEYS: "mcp-maintainer" },
  });
  stdio = new Client({ name: "test", version: "1.0.0" });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--data", await tempDir("mcp"), "--catalog", catalog],
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" } as Record<string, string>,
      stderr: "ignore",
    }),
  );
});

after(async () => {
  await stdio?.close();
  await service?.stop();
  await standIn?.close();
});

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: "test-http", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, checked field by field by the assertions
function json(result: Awaited<ReturnType<Client["callTool"]>>): any {
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first?.text ?? "null");
}

test("stdio: four tools; search, call and synthesize work end to end", async () => {
  const { tools } = await stdio.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    "call_tool",
    "route_and_execute",
    "search_tools",
    "synthesize_tool",
  ]);

  const search = await stdio.callTool({
    name: "search_tools",
    arguments: { query: "I want my money back for order 1234" },
  });
  assert.equal(search.isError, undefined, JSON.stringify(search.content));
  assert.equal(json(search).tools[0].name, "refund_order");

  const sum = await stdio.callTool({
    name: "call_tool",
    arguments: { name: "add_numbers", arguments: { a: 40, b: 2 } },
  });
  assert.equal(sum.isError, undefined, JSON.stringify(sum.content));
  assert.deepEqual(json(sum).output, { sum: 42 });

  const made = await stdio.callTool({
    name: "synthesize_tool",
    arguments: {
      name: "double_it",
      description: "Double a number",
      inputSchema: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
      code: "async function double_it(args) { return { doubled: args.x * 2 }; }",
      examples: [{ arguments: { x: 4 }, expect: { doubled: 8 } }],
    },
  });
  assert.equal(made.isError, undefined, JSON.stringify(made.content));
  const doubled = await stdio.callTool({
    name: "call_tool",
    arguments: { name: "double_it", arguments: { x: 21 } },
  });
  assert.deepEqual(json(doubled).output, { doubled: 42 });

  const refused = await stdio.callTool({
    name: "synthesize_tool",
    arguments: {
      name: "sneaky",
      description: "Reads the host",
      inputSchema: { type: "object" },
      code: "async function sneaky() { return process.env; }",
    },
  });
  assert.equal(refused.isError, true);
  assert.equal(json(refused).ok, false);
});

test("stdio: invalid input comes back as a tool result with isError, not a protocol error", async () => {
  const missing = await stdio.callTool({ name: "search_tools", arguments: { topK: 3 } });
  assert.equal(missing.isError, true);
  assert.match(JSON.stringify(missing.content), /query/);

  const wrongArgs = await stdio.callTool({
    name: "call_tool",
    arguments: { name: "add_numbers", arguments: { a: "x" } },
  });
  assert.equal(wrongArgs.isError, true);
  assert.equal(json(wrongArgs).error.class, "schema");

  const unknown = await stdio.callTool({ name: "call_tool", arguments: { name: "launch_rocket" } });
  assert.equal(unknown.isError, true);
  assert.match(JSON.stringify(unknown.content), /unknown tool/);
});

test("Streamable HTTP: an agent key gets search and call, a maintainer key also synthesize", async () => {
  const agent = await httpClient("mcp-agent");
  try {
    const names = (await agent.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["call_tool", "route_and_execute", "search_tools"]);
    const words = await agent.callTool({
      name: "call_tool",
      arguments: { name: "count_words", arguments: { text: "a b c d" } },
    });
    assert.equal(json(words).output.words, 4);
  } finally {
    await agent.close();
  }
  const maintainer = await httpClient("mcp-maintainer");
  try {
    const names = (await maintainer.listTools()).tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["call_tool", "route_and_execute", "search_tools", "synthesize_tool"]);
  } finally {
    await maintainer.close();
  }
});

test("Streamable HTTP: a wrong key is refused with 401", async () => {
  await assert.rejects(httpClient("wrong"), /401|unknown API key/);
});
