// Argument filling by an LLM, against a local HTTP server standing in for an OpenAI-compatible provider:
// the request carries the tool's strict schema as structured output, a reply that breaks the schema is
// fed back once with its problems, and a null for a required value stays missing instead of a guess.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { fillWithLlm } from "../../src/app/route-and-execute/llm-fill.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { fillArguments } from "../../src/intent/index.ts";
import { type ChatStandIn, startChatStandIn } from "../fixtures/chat-stand-in.ts";

const tool: Tool = {
  name: "convert_units",
  description: "Converts a value between units",
  inputSchema: {
    type: "object",
    properties: {
      value: { type: "number" },
      from: { type: "string" },
      to: { type: "string" },
      precision: { type: "integer", default: 6 },
    },
    required: ["value", "from", "to"],
    additionalProperties: false,
  },
};

/** Every field open to the LLM: the offline extraction settled none. */
const ALL = new Set(["value", "from", "to", "precision"]);

let replies: string[] = [];
let llm: ChatStandIn;
let baseUrl: string;
// biome-ignore lint/suspicious/noExplicitAny: request bodies as the stand-in received them
let received: any[];

before(async () => {
  llm = await startChatStandIn(() => replies.shift() ?? "{}");
  ({ baseUrl, received } = llm);
});
after(() => llm.close());

test("a reply that breaks the schema is fed back once; the corrected one fills the call", async () => {
  received.length = 0;
  replies = [
    JSON.stringify({ value: "ten", from: "km", to: "m", precision: null }),
    JSON.stringify({ value: 10, from: "km", to: "m", precision: null }),
  ];
  const query = "ten kilometres in metres please";
  const offline = fillArguments(query, tool.inputSchema);
  const filled = await fillWithLlm(query, tool, offline, {}, { baseUrl, model: "stand-in" }, ALL);
  assert.deepEqual(filled.arguments, { value: 10, from: "km", to: "m" });
  assert.deepEqual(filled.missing, []);
  assert.equal(filled.filled.find((v) => v.field === "value")?.source, "llm");
  assert.equal(received.length, 2);
  const format = received[0].response_format;
  assert.equal(format.type, "json_schema");
  assert.equal(format.json_schema.strict, true);
  assert.deepEqual(format.json_schema.schema.required, ["value", "from", "to", "precision"]);
  const feedback = received[1].messages.at(-1).content;
  assert.match(feedback, /value/);
  assert.match(feedback, /must be number/);
});

test("a null for a required value stays missing, and the agent's own values win", async () => {
  received.length = 0;
  replies = [JSON.stringify({ value: null, from: "km", to: "mi", precision: null })];
  const query = "convert kilometres to miles";
  const offline = fillArguments(query, tool.inputSchema, { to: "nmi" });
  const filled = await fillWithLlm(
    query,
    tool,
    offline,
    { to: "nmi" },
    { baseUrl, model: "stand-in" },
    new Set(["value", "from", "precision"]),
  );
  assert.equal(received.length, 1);
  assert.deepEqual(filled.arguments, { from: "km", to: "nmi" });
  assert.deepEqual(
    filled.missing.map((m) => m.field),
    ["value"],
  );
});

test("a field the offline extraction read surely is not the LLM's to change", async () => {
  received.length = 0;
  replies = [JSON.stringify({ value: 99, from: "km", to: "ft", precision: null })];
  const query = "convert 5 km to something";
  const offline = fillArguments(query, tool.inputSchema);
  const filled = await fillWithLlm(
    query,
    tool,
    offline,
    {},
    { baseUrl, model: "stand-in" },
    new Set(["to", "precision"]),
  );
  assert.equal(received.length, 1);
  assert.match(received[0].messages[1].content, /Already read from the request: .*"value":5/);
  assert.equal(filled.arguments.value, 5);
  assert.equal(filled.arguments.to, "ft");
  assert.equal(filled.filled.find((v) => v.field === "value")?.source, "query");
});
