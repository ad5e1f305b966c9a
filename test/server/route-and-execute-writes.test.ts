// Route-and-execute with a tool that writes and a configured LLM, over the real service's HTTP API, on a
// catalog made up here. Two local HTTP servers stand in: one for the project API the tools call (it keeps
// every write it receives), one for an OpenAI-compatible LLM (it keeps every request and answers from a
// queue). A tool annotated as writing never runs on a value the request did not state, a default
// included; the LLM is asked only when the offline filler is unsure or lacks a value, only about those
// fields, and an answer that breaks the schema runs nothing.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { type ChatBody, type ChatStandIn, startChatStandIn } from "../fixtures/chat-stand-in.ts";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const KEY = "maintainer-writes-1";
let service: Service;
let projectApi: Server;
let llm: ChatStandIn;
/** What the stand-in project API received: one entry per archive call. */
const archived: Record<string, unknown>[] = [];
/** The LLM stand-in's next answers to argument-filling requests. */
const fillReplies: string[] = [];

function catalogTools(base: string): object[] {
  return [
    {
      name: "archive_project",
      description: "Archive a project: it becomes read-only and is deleted after its retention period.",
      examples: ['archive the project "apollo" and keep it 90 days', "archive project gemini for 30 days"],
      inputSchema: {
        type: "object",
        properties: {
          project: { type: "string", minLength: 1, maxLength: 40, description: "The project's name" },
          retention_days: {
            type: "integer",
            minimum: 1,
            maximum: 3650,
            default: 30,
            description: "Days the archive is kept before it is deleted",
          },
        },
        required: ["project"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      binding: { type: "http", method: "POST", url: `${base}/archive`, bodyFrom: "arguments" },
    },
    {
      name: "project_report",
      description: "Read a project's activity report: commits, issues and releases over recent days.",
      examples: ['activity report of project "apollo"', "show me the report for project gemini"],
      inputSchema: {
        type: "object",
        properties: {
          project: { type: "string", minLength: 1, maxLength: 40, description: "The project's name" },
          days: { type: "integer", minimum: 1, maximum: 365, default: 7, description: "Days covered" },
        },
        required: ["project"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      binding: { type: "http", method: "POST", url: `${base}/report`, bodyFrom: "arguments" },
    },
  ];
}

/** Whether a chat request is the argument filler's (structured output named after the tool's arguments). */
const isFill = (body: ChatBody) =>
  typeof body.response_format?.json_schema?.name === "string" &&
  body.response_format.json_schema.name.endsWith("_arguments");

before(async () => {
  projectApi = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    res.writeHead(200, { "content-type": "application/json" });
    if (req.url === "/archive") {
      archived.push(JSON.parse(body) as Record<string, unknown>);
      res.end(JSON.stringify({ archived: true }));
    } else res.end(JSON.stringify({ commits: 3 }));
  });
  projectApi.listen(0, "127.0.0.1");
  await once(projectApi, "listening");
  llm = await startChatStandIn((body) => (isFill(body) ? (fillReplies.shift() ?? "{}") : "{}"));
  const base = `http://127.0.0.1:${(projectApi.address() as AddressInfo).port}`;
  service = await startService({
    catalog: await writeCatalog(catalogTools(base)),
    env: {
      SWITCHBOARD_MAINTAINER_KEYS: KEY,
      SWITCHBOARD_LLM_BASE_URL: llm.baseUrl,
      SWITCHBOARD_LLM_MODEL: "stand-in",
    },
  });
});

after(async () => {
  await service?.stop();
  projectApi?.closeAllConnections();
  projectApi?.close();
  await llm?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the parsed answer, checked field by field
async function ask(query: string): Promise<any> {
  const answer = await call(service, "POST", "/v1/route-and-execute", { key: KEY, body: { query } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

const fillRequests = () => llm.received.filter(isFill);

test("a tool that writes runs when the request states every value; the LLM is not asked", async () => {
  const asked = fillRequests().length;
  const before = archived.length;
  const body = await ask('archive the project "apollo" and keep it 90 days');
  assert.equal(body.status, "completed", JSON.stringify(body.missing));
  assert.deepEqual(archived.slice(before), [{ project: "apollo", retention_days: 90 }]);
  assert.equal(body.calls.length, 1);
  assert.equal(fillRequests().length, asked, "the offline filler was sure: no LLM request");
});

test("a tool that writes does not run on its default: the value is asked for, after the LLM could not give it", async () => {
  const before = archived.length;
  const asked = fillRequests().length;
  fillReplies.push(JSON.stringify({ project: null, retention_days: null }));
  const body = await ask('archive the project "gemini"');
  assert.equal(body.status, "needs_input", JSON.stringify(body.result));
  assert.equal(body.tool, "archive_project");
  assert.deepEqual(
    body.missing.map((m: { field: string }) => m.field),
    ["retention_days"],
  );
  assert.match(body.missing[0].reason, /default/);
  assert.equal(archived.length, before, "nothing was archived");
  assert.equal(body.calls.length, 0);
  // Asked exactly once, and only about the value in doubt: the project was read surely.
  const requests = fillRequests().slice(asked);
  assert.equal(requests.length, 1);
  assert.match(
    requests[0]?.messages.at(-1)?.content ?? "",
    /Already read from the request: \{"project":"gemini"\}/,
  );
});

test("a tool that only reads runs on its default", async () => {
  const asked = fillRequests().length;
  const body = await ask('activity report of project "apollo"');
  assert.equal(body.status, "completed", JSON.stringify(body.missing));
  assert.equal(body.tool, "project_report");
  assert.deepEqual(body.calls[0].arguments, { project: "apollo" });
  assert.equal(fillRequests().length, asked, "the LLM was not asked");
});

test("an LLM answer that breaks the schema, twice, runs nothing and asks", async () => {
  const before = archived.length;
  const asked = fillRequests().length;
  // The project is not quoted, so the offline filler lacks it; the LLM answers with a number, twice.
  fillReplies.push(JSON.stringify({ project: 42, retention_days: null }));
  fillReplies.push(JSON.stringify({ project: 42, retention_days: null }));
  const body = await ask("archive the project for 90 days");
  assert.equal(body.status, "needs_input", JSON.stringify(body.result));
  assert.ok(body.missing.some((m: { field: string }) => m.field === "project"));
  assert.equal(archived.length, before, "nothing was archived");
  assert.equal(fillRequests().length - asked, 2, "asked, and told once what was wrong");
});

test("an LLM value that appears nowhere in the request does not run a tool that writes", async () => {
  const before = archived.length;
  fillReplies.push(JSON.stringify({ project: "zeus", retention_days: null }));
  const body = await ask("archive the project for 90 days");
  assert.equal(body.status, "needs_input", JSON.stringify(body.result));
  assert.ok(body.missing.some((m: { field: string }) => m.field === "project"));
  assert.equal(archived.length, before);
});
