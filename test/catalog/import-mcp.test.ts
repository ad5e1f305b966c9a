import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { importMcp } from "../../src/catalog/index.ts";

const run = promisify(execFile);
const cli = join(import.meta.dirname, "../../bin/switchboard.js");
const standIn = join(import.meta.dirname, "../fixtures/mcp-stand-in-server.ts");
const TOOL_NAMES = ["echo", "add", "fail", "wait", "visit", "whoami", "read_token", "read_authorization"];

test("the stand-in server really pages its tools/list when asked to", async () => {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [standIn, "--page-size", "2"] }),
  );
  try {
    const first = await client.listTools();
    assert.equal(first.tools.length, 2);
    assert.equal(first.nextCursor, "2");
  } finally {
    await client.close();
  }
});

test("every tool of every page is imported with an mcp binding to its server", async () => {
  const args = [standIn, "--page-size", "2"];
  const { tools, warnings } = await importMcp(process.execPath, args);
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    tools.map((t) => t.name),
    TOOL_NAMES,
  );
  const echo = tools[0];
  assert.equal(echo?.title, "Echo");
  assert.equal(echo?.description, "Returns the text it is given");
  assert.deepEqual(echo?.annotations, { readOnlyHint: true });
  assert.deepEqual(echo?.inputSchema.required, ["text"]);
  assert.deepEqual(echo?.binding, { type: "mcp", command: process.execPath, args, tool: "echo" });
  assert.deepEqual(tools[1]?.outputSchema?.required, ["sum"]);
});

test("the CLI writes the imported tools with --out, and they pass catalog validate", async () => {
  const out = join(await mkdtemp(join(tmpdir(), "sb-mcp-")), "stand-in.json");
  const { stdout } = await run(process.execPath, [
    cli,
    "catalog",
    "import",
    "mcp",
    "--out",
    out,
    "--json",
    "--",
    process.execPath,
    standIn,
  ]);
  assert.deepEqual(JSON.parse(stdout), { out, tools: TOOL_NAMES.length, warnings: [] });
  const written = JSON.parse(await readFile(out, "utf8"));
  assert.deepEqual(
    written.map((t: { name: string }) => t.name),
    TOOL_NAMES,
  );
  const validated = await run(process.execPath, [cli, "catalog", "validate", out, "--json"]);
  assert.equal(JSON.parse(validated.stdout).valid, true);
});

test("a command that is not there gets one clear error naming it, and a missing command is a usage error", async () => {
  await assert.rejects(
    importMcp("/nonexistent/mcp-server", ["--x"]),
    /MCP server "\/nonexistent\/mcp-server --x"/,
  );
  await assert.rejects(run(process.execPath, [cli, "catalog", "import", "mcp", "--json"]), { code: 2 });
});
