// Exact accounting of what route-and-execute ran, over the real service's HTTP API: a tool that writes (it
// adds an entry to a ledger kept by a local stand-in server, a side effect counted there) is asked for in
// requests of one and several intents. Every entry the ledger received is a call in the answer's `calls`,
// once, with its result; no request adds an entry twice; the status says what ran.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const KEY = "maintainer-accounting-1";
let service: Service;
let ledgerServer: Server;
/** The stand-in's ledger: every entry a call added, in order. */
const ledger: Record<string, unknown>[] = [];

function catalogTools(base: string): object[] {
  return [
    {
      name: "add_ledger_entry",
      description:
        "Add an entry to the expense ledger: an amount of money spent in a category (food, travel or office).",
      examples: ["add 12 to the expense ledger for food", "record 40 spent on travel in the ledger"],
      inputSchema: {
        type: "object",
        properties: {
          amount: { type: "number", description: "The amount of money spent" },
          category: {
            type: "string",
            enum: ["food", "travel", "office"],
            description: "The expense category",
          },
        },
        required: ["amount", "category"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      binding: { type: "http", method: "POST", url: `${base}/ledger`, bodyFrom: "arguments" },
    },
    {
      name: "ledger_balance",
      description: "Read the balance of the expense ledger: the total spent so far.",
      examples: ["what is the ledger balance", "how much have I spent in total"],
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      binding: { type: "http", method: "GET", url: `${base}/balance` },
    },
  ];
}

before(async () => {
  // A local HTTP server standing in for the ledger's API.
  ledgerServer = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    res.writeHead(200, { "content-type": "application/json" });
    if (req.method === "POST" && req.url === "/ledger") {
      ledger.push(JSON.parse(body) as Record<string, unknown>);
      res.end(JSON.stringify({ entry: ledger.length }));
    } else res.end(JSON.stringify({ balance: ledger.reduce((sum, e) => sum + Number(e.amount), 0) }));
  });
  ledgerServer.listen(0, "127.0.0.1");
  await once(ledgerServer, "listening");
  const base = `http://127.0.0.1:${(ledgerServer.address() as AddressInfo).port}`;
  service = await startService({
    catalog: await writeCatalog(catalogTools(base)),
    env: { SWITCHBOARD_MAINTAINER_KEYS: KEY },
  });
});

after(async () => {
  await service?.stop();
  ledgerServer?.closeAllConnections();
  ledgerServer?.close();
});

interface ExecutedCall {
  tool: string;
  arguments: Record<string, unknown>;
  result: { status: string; output?: unknown };
  intent?: number;
}

/** Asks over HTTP and checks the accounting invariants; the answer and the entries the request added. */
async function ask(query: string) {
  const before = ledger.length;
  const answer = await call(service, "POST", "/v1/route-and-execute", { key: KEY, body: { query } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const body = answer.body as {
    status: string;
    steps: { step: string }[];
    calls: ExecutedCall[];
    intents?: { status: string; steps: { step: string }[] }[];
  };
  const added = ledger.slice(before);
  const writes = body.calls.filter((c) => c.tool === "add_ledger_entry");
  assert.deepEqual(
    writes.map((c) => c.arguments),
    added,
    `${query}: every ledger entry is one call in the answer, with the arguments it was added with`,
  );
  for (const c of body.calls)
    assert.ok(c.result && typeof c.result.status === "string", "each call has its result");
  const executeSteps = (body.intents ?? [body]).flatMap((part) =>
    part.steps.filter((s) => s.step === "execute"),
  );
  assert.equal(executeSteps.length, body.calls.length, "each call is in one part's steps, once");
  if (body.calls.length === 0)
    assert.ok(!["completed", "partial", "failed"].includes(body.status), body.status);
  return { body, added };
}

/** The status a request's parts make: completed when all did, partial when some ran and others did not complete. */
function expectedStatus(parts: string[]): string | undefined {
  if (parts.every((p) => p === "completed")) return "completed";
  return parts.some((p) => p === "completed" || p === "failed") ? "partial" : undefined;
}

test("one intent: an entry added is the one call in the answer, with its result", async () => {
  const { body, added } = await ask("add 12 to the expense ledger for food");
  assert.equal(body.calls.length, added.length);
  assert.equal(body.status === "completed", added.length === 1, body.status);
  if (added.length === 1) assert.deepEqual(body.calls[0]?.result.output, { entry: ledger.length });
});

test("two intents: each entry added is a call naming the part that ran it; the status says what ran", async () => {
  const { body } = await ask(
    "add 12 to the expense ledger for food and then add 30 to the expense ledger for travel",
  );
  const parts = body.intents?.map((i) => i.status) ?? [body.status];
  const ran = parts.flatMap((status, i) => (status === "completed" ? [i] : []));
  if (body.intents) {
    assert.deepEqual(
      body.calls.map((c) => c.intent),
      ran,
    );
    const expected = expectedStatus(parts);
    if (expected) assert.equal(body.status, expected);
  }
});

test("a part that needs input after one that ran: partial, and the entry that was added is in the answer", async () => {
  const { body, added } = await ask(
    "add 12 to the expense ledger for food and then add an entry to the expense ledger for travel",
  );
  if (added.length > 0 && body.intents) {
    assert.equal(body.status, "partial");
    assert.deepEqual(
      body.intents.map((i) => i.status),
      ["completed", "needs_input"],
    );
  } else assert.notEqual(body.status, "partial", "nothing ran: not partial");
});

test("a part nothing serves: the request is answered once, never run again whole after a part ran", async () => {
  const { added } = await ask("add 12 to the expense ledger for food and then sing me a song about autumn");
  assert.ok(added.length <= 1, `the entry was added ${added.length} times`);
});

test("a long agent message (20,000 characters) is taken and routed on its start; past 32,000 one error names the query", async () => {
  const context = " The notes below are the meeting minutes pasted for context only".repeat(300);
  const long = `add 12 to the expense ledger for food${context}`;
  assert.ok(long.length > 19_000 && long.length < 32_000);
  const { body } = await ask(long);
  assert.notEqual(body.status, "no_match", "the instruction at its start is routed");
  const before = ledger.length;
  const tooLong = await call(service, "POST", "/v1/route-and-execute", {
    key: KEY,
    body: { query: `add 12 to the expense ledger for food${context.repeat(2)}` },
  });
  assert.equal(tooLong.status, 422, JSON.stringify(tooLong.body));
  assert.match(JSON.stringify(tooLong.body), /query.*more than the 32000 this service takes/);
  assert.equal(ledger.length, before, "a refused request runs nothing");
});
