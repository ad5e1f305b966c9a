import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, test } from "node:test";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { closeProviders, createProvider, McpToolError } from "../../src/bindings/index.ts";
import type { McpBinding, Tool } from "../../src/catalog/index.ts";
import { createEgressPolicy } from "../../src/egress/index.ts";
import type { Sandbox } from "../../src/synth/index.ts";

const standIn = new URL("../fixtures/mcp-stand-in-server.ts", import.meta.url).pathname;
const stdio: McpBinding = { type: "mcp", command: process.execPath, args: [standIn] };
// The Streamable HTTP stand-in listens on loopback, which tools reach only when the operator allows it.
const noSandbox = { sandbox: {} as Sandbox, egress: createEgressPolicy({ allow: ["127.0.0.1"] }) };

after(() => closeProviders());

function provider(toolName: string, binding: McpBinding = stdio) {
  const tool: Tool = { name: `local_${toolName}`, description: "d", inputSchema: { type: "object" } };
  return createProvider({ ...binding, tool: toolName }, tool, noSandbox);
}

function call(name: string, args: Record<string, unknown> = {}, signal = new AbortController().signal) {
  return provider(name).invoke(args, { signal, callId: "c", context: {} });
}

test("a stdio server's tools answer with their text, or their structured content", async () => {
  assert.equal(await call("echo", { text: "hello" }), "hello");
  assert.deepEqual(await call("add", { a: 2, b: 3 }), { sum: 5 });
});

test("an mcp binding sends its declared context keys in _meta and keeps only declared changes", async () => {
  const tool: Tool = { name: "visit", description: "d", inputSchema: { type: "object" } };
  const visit = createProvider(
    { ...stdio, context: { read: ["visits"], write: ["visits"] } },
    tool,
    noSandbox,
  );
  const context = { visits: 2, password: "not for this tool" };
  const result = await visit.invoke({}, { signal: new AbortController().signal, callId: "c", context });
  const modifier = Symbol.for("switchboard.contextModifier");
  const { output, [modifier]: patch } = result as { output: unknown; [modifier]: unknown };
  assert.deepEqual(JSON.parse(output as string), { seen: { visits: 2 } });
  assert.deepEqual(patch, { visits: 3 }, "admin was not declared as written");
  const undeclared = createProvider({ ...stdio, tool: "visit" }, tool, noSandbox);
  const plain = await undeclared.invoke({}, { signal: new AbortController().signal, callId: "c", context });
  assert.deepEqual(JSON.parse(plain as string), { seen: null }, "nothing declared, nothing sent or kept");
});

test("an isError result becomes an McpToolError carrying what the tool said", async () => {
  await assert.rejects(call("fail", { reason: "no stock" }), (error: McpToolError) => {
    assert.ok(error instanceof McpToolError);
    assert.match(error.message, /^tool fail on .*: refused: no stock$/);
    assert.deepEqual(error.content, [{ type: "text", text: "refused: no stock" }]);
    return true;
  });
});

test("every tool of one server shares one pooled server process until closeProviders", async () => {
  const first = await call("whoami");
  assert.equal(
    await provider("whoami").invoke({}, { signal: new AbortController().signal, callId: "c", context: {} }),
    first,
  );
  assert.equal(await call("echo", { text: "still here" }), "still here");
  assert.equal(await call("whoami"), first);
  await closeProviders();
  const second = await call("whoami");
  assert.notEqual(second, first, "a new server process after closing");
});

test("a server that dies is started again on a later call", async () => {
  const pid = Number(await call("whoami"));
  process.kill(pid, "SIGKILL");
  let next: unknown;
  for (let attempt = 0; attempt < 200 && next === undefined; attempt++) {
    next = await call("whoami").catch(
      () => new Promise((resolve) => setTimeout(() => resolve(undefined), 20)),
    );
  }
  assert.ok(next !== undefined && Number(next) !== pid, `a new server answered (${String(next)})`);
});

test("the caller's AbortSignal cancels a call in flight", async () => {
  const controller = new AbortController();
  const pending = call("wait", { ms: 30_000 }, controller.signal);
  setTimeout(() => controller.abort(new Error("batch cancelled")), 50);
  await assert.rejects(pending, /cancelled|abort/i);
});

test("a Streamable HTTP server is reached by url", async () => {
  // An in-process MCP server over Streamable HTTP on 127.0.0.1, standing in for a remote one.
  const mcp = new McpServer({ name: "http-stand-in", version: "1.0.0" });
  mcp.registerTool(
    "shout",
    { description: "Upper-cases text", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text: text.toUpperCase() }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const http = createServer((req, res) => transport.handleRequest(req, res));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  try {
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    const shout = provider("shout", { type: "mcp", url });
    assert.equal(
      await shout.invoke({ text: "hi" }, { signal: new AbortController().signal, callId: "c", context: {} }),
      "HI",
    );
    assert.equal(shout.id, `mcp:${url}#shout`);
  } finally {
    await closeProviders();
    await mcp.close();
    http.closeAllConnections();
    http.close();
  }
});

test("a stdio server gets the environment its binding declares, with {env.NAME} read from ours", async () => {
  const withToken: McpBinding = {
    ...stdio,
    args: [standIn, "--env-case"],
    env: { STAND_IN_TOKEN: "{env.SB_TEST_MCP_TOKEN}" },
  };
  const signal = new AbortController().signal;
  await assert.rejects(
    provider("read_token", withToken).invoke({}, { signal, callId: "c", context: {} }),
    /the environment variable SB_TEST_MCP_TOKEN is not set \(the mcp binding needs it\)/,
  );
  process.env.SB_TEST_MCP_TOKEN = "t0ken";
  try {
    assert.equal(
      await provider("read_token", withToken).invoke({}, { signal, callId: "c", context: {} }),
      "t0ken",
    );
    assert.equal(await call("read_token"), "(unset)");
  } finally {
    delete process.env.SB_TEST_MCP_TOKEN;
  }
});
