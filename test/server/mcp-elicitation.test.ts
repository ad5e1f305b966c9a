// route_and_execute over MCP asks the user for a missing value by elicitation when the client declares it
// can: real `switchboard mcp` (stdio) and `switchboard serve` (Streamable HTTP) processes over a few bundled
// offline tools, driven by the SDK's Client whose elicitation handler plays the user. A client without the
// capability gets the same needs_input answer as POST /v1/route-and-execute.
import assert from "node:assert/strict";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { loadCatalog } from "../../src/catalog/index.ts";
import { CLI, call, ROOT, type Service, startService, tempDir } from "./harness.ts";

const NAMES = ["current_time", "convert_timezone", "statistics_summary", "convert_units"];
const ATLANTIS = "what time is it in Atlantis";
/** The first call over stdio waits for the index to be built: the SDK's 60 s default is short on a busy machine. */
const SLOW_CALL_MS = 300_000;

/** The user behind an eliciting client: each question gets the next scripted reply, all are recorded. */
interface User {
  asked: ElicitRequest["params"][];
  replies: ((params: ElicitRequest["params"]) => ElicitResult)[];
}

let stdio: Client;
let user: User;
let service: Service;

async function bundledCatalog(): Promise<string> {
  const dir = await tempDir("elicit-catalog");
  await mkdir(join(dir, "tools"));
  const tools = (await loadCatalog(join(ROOT, "catalog"))).filter((t) => NAMES.includes(t.name));
  // Sandboxed code must live inside its catalog's folder: each tool's file is copied next to the catalog.
  const copied = [];
  for (const tool of tools) {
    if (tool.binding?.type !== "sandbox" || !tool.binding.file)
      throw new Error(`${tool.name} is not sandboxed`);
    const file = `tools/${basename(tool.binding.file)}`;
    await copyFile(tool.binding.file, join(dir, file));
    copied.push({ ...tool, binding: { ...tool.binding, file } });
  }
  const file = join(dir, "catalog.json");
  await writeFile(file, JSON.stringify({ tools: copied }));
  return file;
}

function elicitingClient(name: string): { client: Client; user: User } {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const person: User = { asked: [], replies: [] };
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    person.asked.push(request.params);
    const reply = person.replies.shift();
    if (!reply) throw new Error("the user is away");
    return reply(request.params);
  });
  return { client, user: person };
}

function httpTransport(): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`));
}

before(async () => {
  const catalog = await bundledCatalog();
  const eliciting = elicitingClient("eliciting-stdio");
  stdio = eliciting.client;
  user = eliciting.user;
  const connecting = stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--data", await tempDir("elicit-mcp"), "--catalog", catalog],
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" } as Record<string, string>,
      stderr: "ignore",
    }),
  );
  const starting = startService({ catalog });
  [, service] = await Promise.all([connecting, starting]);
  // Both sandbox hosts started before the tests, so no first run meets a cold start within its time limit.
  const warm = { name: "current_time", arguments: { timezone: "UTC" } };
  await stdio.callTool({ name: "call_tool", arguments: warm }, undefined, { timeout: SLOW_CALL_MS });
  await call(service, "POST", "/v1/execute", { body: { calls: [{ id: "warm", ...warm }] } });
});

after(async () => {
  await stdio?.close();
  await service?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, checked field by field by the assertions
async function routeAndExecute(client: Client, query: string): Promise<any> {
  const result = await client.callTool({ name: "route_and_execute", arguments: { query } }, undefined, {
    timeout: SLOW_CALL_MS,
  });
  return result.structuredContent;
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON steps, checked field by field by the assertions
const elicitSteps = (answer: { steps: any[] }): any[] => answer.steps.filter((s) => s.step === "elicit");

test("accept: the elicited time zone is checked, merged and the tool runs", async () => {
  user.replies = [() => ({ action: "accept", content: { timezone: "Asia/Tokyo" } })];
  user.asked = [];
  const answer = await routeAndExecute(stdio, ATLANTIS);
  assert.equal(answer.status, "completed", JSON.stringify(answer));
  assert.equal(answer.tool, "current_time");
  assert.equal(answer.result.output.zone, "Asia/Tokyo");
  assert.equal(user.asked.length, 1);
  const [asked] = user.asked;
  assert.ok(asked && asked.mode !== "url");
  assert.match(asked.message, /time zone/);
  assert.deepEqual(asked.requestedSchema.required, ["timezone"]);
  assert.deepEqual(asked.requestedSchema.properties.timezone, {
    type: "string",
    title: "timezone",
    maxLength: 60,
  });
  assert.deepEqual(
    elicitSteps(answer).map((s: { action?: string }) => s.action),
    ["accept"],
  );
});

test("decline or cancel: needs_input saying the user declined, not an error", async () => {
  for (const action of ["decline", "cancel"] as const) {
    user.replies = [() => ({ action })];
    const result = await stdio.callTool(
      { name: "route_and_execute", arguments: { query: ATLANTIS } },
      undefined,
      { timeout: SLOW_CALL_MS },
    );
    assert.equal(result.isError, undefined);
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON answer
    const answer = result.structuredContent as any;
    assert.equal(answer.status, "needs_input", JSON.stringify(answer));
    assert.deepEqual(
      answer.missing.map((m: { field: string }) => m.field),
      ["timezone"],
    );
    assert.match(answer.missing[0].reason, action === "decline" ? /declined/ : /dismissed/);
    assert.equal(elicitSteps(answer)[0].action, action);
    assert.equal(
      answer.steps.some((s: { step: string }) => s.step === "execute"),
      false,
    );
  }
});

test("a hostile answer (extra field, wrong type, huge string) is refused by name, asked once more, and nothing runs", async () => {
  user.asked = [];
  user.replies = [
    () => ({ action: "accept", content: { timezone: 42, shell: "rm -rf /" } }),
    () => ({ action: "accept", content: { timezone: "x".repeat(100_000) } }),
  ];
  const answer = await routeAndExecute(stdio, ATLANTIS);
  assert.equal(answer.status, "needs_input", JSON.stringify(answer).slice(0, 2000));
  assert.equal(user.asked.length, 2);
  assert.match(user.asked[1]?.message ?? "", /refused: .*"shell", which was not asked for/);
  const [first, second] = elicitSteps(answer);
  assert.deepEqual(first.problems, ['the answer holds "shell", which was not asked for']);
  assert.deepEqual(second.problems, ["timezone is 100000 characters long, more than 4096"]);
  assert.equal(answer.missing[0].field, "timezone");
  assert.match(answer.missing[0].reason, /^timezone is 100000 characters long/);
  assert.ok(JSON.stringify(answer).length < 20_000, "the huge value is not echoed back");
  assert.equal(
    answer.steps.some((s: { step: string }) => s.step === "execute"),
    false,
  );

  user.replies = [
    () => ({ action: "accept", content: { timezone: 42 } }),
    () => ({ action: "accept", content: { timezone: 43 } }),
  ];
  const wrongType = await routeAndExecute(stdio, ATLANTIS);
  assert.equal(wrongType.status, "needs_input");
  assert.match(wrongType.missing[0].reason, /^timezone must be string/);

  const made = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${"k".repeat(10_000)}${i}`, i]));
  user.replies = [
    () => ({ action: "accept", content: { timezone: "Asia/Tokyo", ...made } }),
    () => ({ action: "accept", content: made }),
  ];
  const flooded = await routeAndExecute(stdio, ATLANTIS);
  assert.equal(flooded.status, "needs_input");
  assert.match(flooded.missing[0].reason, /^timezone was not given/);
  assert.match(
    elicitSteps(flooded)[0].problems[0],
    /^the answer holds "k{64}…", .* and 95 more, which was not asked for$/,
  );
  assert.ok(JSON.stringify(flooded).length < 20_000, "made-up names are not echoed back whole");
});

test("a refused answer corrected on the second question runs", async () => {
  user.replies = [
    () => ({ action: "accept", content: { timezone: 42 } }),
    () => ({ action: "accept", content: { timezone: "Europe/Paris" } }),
  ];
  const answer = await routeAndExecute(stdio, ATLANTIS);
  assert.equal(answer.status, "completed", JSON.stringify(answer));
  assert.equal(answer.result.output.zone, "Europe/Paris");
});

test("each intent of a request asks for its own missing value", async () => {
  user.asked = [];
  user.replies = [() => ({ action: "accept", content: { timezone: "Asia/Tokyo" } })];
  const answer = await routeAndExecute(stdio, `${ATLANTIS} and convert 5 km to miles`);
  assert.equal(answer.status, "completed", JSON.stringify(answer));
  assert.deepEqual(
    answer.intents.map((i: { tool: string }) => i.tool),
    ["current_time", "convert_units"],
  );
  assert.equal(answer.intents[0].result.output.zone, "Asia/Tokyo");
  assert.equal(user.asked.length, 1);
});

test("a client that fails to answer, or a field a form cannot hold, leaves needs_input", async () => {
  user.replies = [];
  const away = await routeAndExecute(stdio, ATLANTIS);
  assert.equal(away.status, "needs_input");
  assert.equal(elicitSteps(away)[0].action, "unanswered");
  assert.match(elicitSteps(away)[0].detail, /the user is away/);
  assert.match(away.missing[0].reason, /did not answer/);

  user.asked = [];
  const list = await routeAndExecute(stdio, "give me the standard deviation of my data");
  assert.equal(list.status, "needs_input", JSON.stringify(list));
  assert.equal(list.tool, "statistics_summary");
  assert.equal(user.asked.length, 0, "an array cannot be asked for in a form");
  assert.equal(elicitSteps(list)[0].action, "not_asked");
  assert.match(elicitSteps(list)[0].detail, /numbers is of type array/);
});

test("Streamable HTTP: elicitation on the tool call's stream; no capability gets /v1/route-and-execute's answer", async () => {
  const eliciting = elicitingClient("eliciting-http");
  await eliciting.client.connect(httpTransport());
  const plain = new Client({ name: "plain-http", version: "1.0.0" });
  await plain.connect(httpTransport());
  try {
    eliciting.user.replies = [() => ({ action: "accept", content: { timezone: "America/Chicago" } })];
    const answered = await routeAndExecute(eliciting.client, ATLANTIS);
    assert.equal(answered.status, "completed", JSON.stringify(answered));
    assert.equal(answered.result.output.zone, "America/Chicago");
    assert.equal(eliciting.user.asked.length, 1);

    const unasked = await routeAndExecute(plain, ATLANTIS);
    const http = await call(service, "POST", "/v1/route-and-execute", { body: { query: ATLANTIS } });
    assert.equal(http.status, 200);
    assert.equal(unasked.status, "needs_input");
    assert.deepEqual(elicitSteps(unasked), []);
    assert.deepEqual(
      {
        missing: unasked.missing,
        question: unasked.question,
        steps: unasked.steps.map((s: { step: string }) => s.step),
      },
      {
        missing: http.body.missing,
        question: http.body.question,
        steps: http.body.steps.map((s: { step: string }) => s.step),
      },
    );
  } finally {
    await eliciting.client.close();
    await plain.close();
  }
});
