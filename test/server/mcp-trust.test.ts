// MCP connections follow trust: a client the operator's catalog configured (its headers, its environment)
// is never lent to a tool put through the API that names the same server. Real MCP stand-in servers
// (test/fixtures/mcp-stand-in-server.ts) answer with the Authorization header, or the environment variable,
// their call arrived with; the service runs as `switchboard serve`, driven over HTTP with agent and
// maintainer keys.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const MAINTAINER = "maint-key-mcp";
const AGENT = "agent-key-mcp";
const OPERATOR_TOKEN = "operator-token-5f2c";
const OTHER_TOKEN = "other-token-81aa";
const standIn = new URL("../fixtures/mcp-stand-in-server.ts", import.meta.url).pathname;

let service: Service;
let httpServer: ChildProcess;
let mcpUrl: string;

before(async () => {
  httpServer = spawn(process.execPath, [standIn, "--http"], { stdio: ["ignore", "pipe", "inherit"] });
  mcpUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    httpServer.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    httpServer.once("exit", (code) => reject(new Error(`the stand-in exited with ${code}`)));
  });
  const tool = (name: string, binding: object) => ({
    name,
    description: `The operator's ${name}`,
    inputSchema: { type: "object" },
    binding: { type: "mcp", ...binding },
  });
  const catalog = await writeCatalog([
    tool("op_http_identity", {
      url: mcpUrl,
      headers: { Authorization: "Bearer {env.SB_TEST_OPERATOR_TOKEN}" },
      tool: "read_authorization",
    }),
    tool("op_http_other_identity", {
      url: mcpUrl,
      headers: { Authorization: "Bearer {env.SB_TEST_OTHER_TOKEN}" },
      tool: "read_authorization",
    }),
    tool("op_stdio_token", {
      command: process.execPath,
      args: [standIn],
      env: { STAND_IN_TOKEN: "{env.SB_TEST_OPERATOR_TOKEN}" },
      tool: "read_token",
    }),
  ]);
  service = await startService({
    catalog,
    env: {
      SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
      SWITCHBOARD_AGENT_KEYS: AGENT,
      SWITCHBOARD_MCP_COMMANDS: process.execPath,
      SWITCHBOARD_EGRESS_ALLOW: new URL(mcpUrl).host,
      SB_TEST_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SB_TEST_OTHER_TOKEN: OTHER_TOKEN,
    },
  });
});

after(async () => {
  await service?.stop();
  httpServer?.kill();
});

async function execute(name: string): Promise<unknown> {
  const answer = await call(service, "POST", "/v1/execute", {
    key: AGENT,
    body: { calls: [{ id: "c1", name, arguments: {} }] },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const [result] = answer.body.results;
  assert.equal(result.status, "completed", JSON.stringify(result));
  return result.output;
}

async function put(name: string, binding: object) {
  const answer = await call(service, "PUT", `/v1/tools/${name}`, {
    key: MAINTAINER,
    body: { description: `A maintainer's ${name}`, inputSchema: { type: "object" }, binding },
  });
  assert.ok([200, 201].includes(answer.status), JSON.stringify(answer.body));
}

test("an API tool on the operator's MCP server over HTTP never carries the operator's headers", async () => {
  await put("api_http_identity", { type: "mcp", url: mcpUrl, tool: "read_authorization" });
  assert.equal(await execute("op_http_identity"), `Bearer ${OPERATOR_TOKEN}`);
  assert.equal(await execute("api_http_identity"), "(none)", "the API tool got a client of its own");
  // Two operator tools with different headers on one server each keep their own.
  assert.equal(await execute("op_http_other_identity"), `Bearer ${OTHER_TOKEN}`);
  assert.equal(await execute("op_http_identity"), `Bearer ${OPERATOR_TOKEN}`);
});

test("an API tool with the operator's stdio command never reaches the server the operator's env started", async () => {
  await put("api_stdio_token", {
    type: "mcp",
    command: process.execPath,
    args: [standIn],
    tool: "read_token",
  });
  assert.equal(await execute("op_stdio_token"), OPERATOR_TOKEN);
  assert.equal(await execute("api_stdio_token"), "(unset)", "the API tool started a server of its own");
  assert.equal(await execute("op_stdio_token"), OPERATOR_TOKEN);
});
