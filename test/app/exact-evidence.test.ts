// Which candidate runs when the evidence, not the router's score, makes the case; on a catalog this test
// makes up, with the stand-in router and runner of stand-in-answer.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerRequest } from "../../src/app/route-and-execute/request.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { standInDeps, THRESHOLD } from "./stand-in-answer.ts";

const described = (tool: Tool, example: string, args: Record<string, unknown>): Tool => ({
  ...tool,
  examples: [example],
  exampleCalls: [{ query: example, arguments: args, output: {} }],
});

/** The request answered with `tool` alone as the router's candidate, well above its bar. */
const answerWith = (tool: Tool, query: string) => answerRequest({ query }, standInDeps([[tool, 0.6]]));

const weekday = described(
  {
    name: "day_facts",
    description: "Facts about a calendar day",
    inputSchema: {
      type: "object",
      properties: { date: { type: "string", format: "date" } },
      required: ["date"],
    },
  },
  "what weekday is 2024-02-29",
  { date: "2024-02-29" },
);
const shifter = described(
  {
    name: "zone_shift",
    description: "Shifts a time of day to another zone",
    inputSchema: {
      type: "object",
      properties: { time: { type: "string" }, to_zone: { type: "string" } },
      required: ["time", "to_zone"],
    },
  },
  "3pm in Tokyo",
  { time: "3pm", to_zone: "Asia/Tokyo" },
);

test("a date that completes a call runs a tool the router scores a little under the threshold", async () => {
  const deps = standInDeps([
    [shifter, THRESHOLD + 0.01],
    [weekday, THRESHOLD - 0.01],
  ]);
  const answer = await answerRequest(
    { query: "the wall fell on 1989-11-09, which day of the week was that?" },
    deps,
  );
  assert.equal(answer.tool, "day_facts", JSON.stringify(answer.steps));
  assert.deepEqual(deps.ran, [{ tool: "day_facts", args: { date: "1989-11-09" } }]);
});

test("a time that completes a call only with a name read by its order is no such evidence", async () => {
  const deps = standInDeps([[shifter, THRESHOLD - 0.01]]);
  const answer = await answerRequest({ query: "remind me to call John at 5pm" }, deps);
  assert.equal(answer.status, "no_match", JSON.stringify(answer.steps));
  assert.deepEqual(deps.ran, []);
});

test("a tool that can run is not preferred on a value placed by its order alone", async () => {
  const tip = described(
    {
      name: "split_bill",
      description: "Adds a tip to a bill and splits it",
      inputSchema: {
        type: "object",
        properties: {
          bill: { type: "number" },
          tip_percent: { type: "number" },
          people: { type: "integer" },
        },
        required: ["bill", "tip_percent"],
      },
    },
    "a 20% tip on 80 for 4 people",
    { bill: 80, tip_percent: 20, people: 4 },
  );
  const loan: Tool = {
    name: "loan_cost",
    description: "Monthly payment of a loan",
    inputSchema: {
      type: "object",
      properties: { principal: { type: "number" }, rate_percent: { type: "number" } },
      required: ["principal", "rate_percent"],
    },
  };
  const deps = standInDeps([
    [tip, 0.6],
    [loan, 0.55],
  ]);
  const answer = await answerRequest(
    { query: "there were 3 of us and we want to leave 20%. what do we owe?" },
    deps,
  );
  assert.equal(answer.tool, "split_bill", JSON.stringify(answer.steps));
  assert.ok(!deps.ran.some((r) => r.tool === "loan_cost"), JSON.stringify(deps.ran));
});

test("a described tool that would ask, and whose words name none of what is asked for, is set aside", async () => {
  const calculator = described(
    {
      name: "calc",
      description: "Evaluates an arithmetic expression",
      inputSchema: {
        type: "object",
        properties: { expression: { type: "string" } },
        required: ["expression"],
      },
    },
    "calculate (2 + 3) * 4",
    { expression: "(2 + 3) * 4" },
  );
  const neighbour = await answerWith(calculator, "find the derivative of a polynomial");
  assert.equal(neighbour.status, "no_match", JSON.stringify(neighbour.steps));
  const asks = await answerWith(calculator, "evaluate the expression please");
  assert.equal(asks.status, "needs_input", JSON.stringify(asks.steps));
  assert.equal(asks.tool, "calc");
});

test("a described tool that would run is set aside when nothing it says or answers names what is asked", async () => {
  const colours = described(
    {
      name: "colour_convert",
      description: "Converts a colour between hex, RGB and HSL",
      inputSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
      outputSchema: { type: "object", properties: { hex: { type: "string" }, rgb: { type: "object" } } },
    },
    "what is #ff0000 in rgb",
    { color: "#ff0000" },
  );
  const neighbour = await answerWith(colours, "Which Pantone swatch is closest to #e4002b?");
  assert.equal(neighbour.status, "no_match", JSON.stringify(neighbour.steps));
  // What its output names is what it answers.
  const answered = await answerWith(colours, "what is the rgb of #e4002b?");
  assert.equal(answered.status, "completed", JSON.stringify(answered.steps));
});

test("a described tool is set aside when its words never name the command the request opens with", async () => {
  const codec = described(
    {
      name: "text_codec",
      description: "Encodes text to base64 or decodes it back",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    },
    "encode 'hello' as base64",
    { text: "hello" },
  );
  for (const query of ["Reverse the string 'switchboard-2025'", "please mint me a token for 'qa-bot'"]) {
    const deps = standInDeps([[codec, 0.6]]);
    const answer = await answerRequest({ query }, deps);
    assert.equal(answer.status, "no_match", `${query}: ${JSON.stringify(answer.steps)}`);
    assert.deepEqual(deps.ran, []);
  }
  // A command the tool names, or one that names no operation ("make"), keeps it.
  for (const query of ["Encode the text 'hello' as base64", "make this base64: 'hello'"]) {
    const answer = await answerWith(codec, query);
    assert.equal(answer.status, "completed", `${query}: ${JSON.stringify(answer.steps)}`);
  }
});

test("a described validator is set aside when its words do not name the thing a request asks it to check", async () => {
  const cards = described(
    {
      name: "validate_card",
      description: "Checks a payment card number with the Luhn checksum",
      inputSchema: { type: "object", properties: { number: { type: "string" } }, required: ["number"] },
    },
    "is 4111 1111 1111 1111 a valid card number?",
    { number: "4111111111111111" },
  );
  const routing = await answerWith(cards, "Is 021000021 a valid ABA routing number?");
  assert.equal(routing.status, "no_match", JSON.stringify(routing.steps));
  const card = await answerWith(cards, "Is 4539 1488 0343 6467 a valid card number?");
  assert.equal(card.status, "completed", JSON.stringify(card.steps));
});
