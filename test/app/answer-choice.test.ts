// Which call route-and-execute makes, on a made-up catalog with a stand-in router and runner: a tool that
// can run but leaves a stated value unused yields to a close one that uses every value; and a request told
// over several sentences about one tool is answered whole, not as parts that each ask for that tool's
// values, while two complete requests to one tool stay two.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerOne } from "../../src/app/route-and-execute/answer.ts";
import { answerRequest } from "../../src/app/route-and-execute/request.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { describedTool, standInDeps } from "./stand-in-answer.ts";

const tool = describedTool;

const shift = tool(
  "shift_span",
  { amount: { type: "integer" }, unit: { type: "string", enum: ["days", "weeks"] } },
  ["amount", "unit"],
);
const converter = tool(
  "measure_converter",
  {
    quantity: { type: "number", description: "how much" },
    source_unit: { type: "string", description: "the unit it is in" },
    target_unit: { type: "string", description: "the unit wanted" },
  },
  ["quantity", "source_unit", "target_unit"],
);
const bill = tool(
  "share_bill",
  {
    total: { type: "number", description: "the bill, in money" },
    gratuity_percent: { type: "number", description: "the tip, in percent" },
    people: { type: "integer", description: "how many people share it", default: 1 },
  },
  ["total"],
  [{ query: "split 60 dollars among 4 people", arguments: { total: 60, people: 4 } }],
);

const deps = standInDeps;

const choices: [name: string, scores: [Tool, number][], status: string, tool: string][] = [
  [
    "a close tool that uses every value runs",
    [
      [shift, 0.6],
      [converter, 0.55],
    ],
    "completed",
    "measure_converter",
  ],
  [
    "a far one does not: the first asks, naming the value it leaves unused",
    [
      [shift, 0.8],
      [converter, 0.45],
    ],
    "needs_input",
    "shift_span",
  ],
];

for (const [name, scores, status, name2] of choices)
  test(`choice: ${name}`, async () => {
    const d = deps(scores);
    const answer = await answerOne({ query: "convert 31 days to hours" }, d);
    assert.equal(answer.status, status, JSON.stringify(answer.missing));
    assert.equal(answer.tool, name2);
    if (status === "completed")
      assert.deepEqual(d.ran, [
        { tool: name2, args: { quantity: 31, source_unit: "days", target_unit: "hours" } },
      ]);
    else
      assert.ok(
        answer.missing?.some((m) => m.reason.includes('"hours"')),
        JSON.stringify(answer.missing),
      );
  });

test("one call told over several sentences is answered whole, and runs once", async () => {
  const d = deps([[bill, 0.7]]);
  const answer = await answerRequest(
    { query: "The bill came to $84.50. Add an 18% tip and split it between 3 people" },
    d,
  );
  assert.equal(answer.status, "completed", JSON.stringify(answer));
  assert.equal(answer.intents, undefined);
  assert.deepEqual(d.ran, [{ tool: "share_bill", args: { total: 84.5, gratuity_percent: 18, people: 3 } }]);
  assert.equal(answer.calls?.length, 1);
});

test("two complete requests to one tool stay two", async () => {
  const d = deps([[converter, 0.7]]);
  const answer = await answerRequest({ query: "convert 5 miles to km and convert 3 days to hours" }, d);
  assert.equal(answer.status, "completed");
  assert.equal(answer.intents?.length, 2);
  assert.deepEqual(
    d.ran.map((r) => r.tool),
    ["measure_converter", "measure_converter"],
  );
});

test("parts asking for one tool's values stay parts when the whole request has no one call's values", async () => {
  const d = deps([[bill, 0.7]]);
  // The first part lacks its total; answered whole, the request has two tips: several calls, not one told
  // in two sentences.
  const answer = await answerRequest(
    { query: "Add an 18% tip for 3 people. The next bill came to $60 with a 15% tip" },
    d,
  );
  assert.equal(answer.intents?.length, 2, JSON.stringify(answer));
  assert.ok(answer.intents?.every((part) => part.tool === "share_bill"));
});

test("of two tools that both lack values, one that needs fewer is not a better fit for lacking fewer", async () => {
  const refill = tool("prescription_refill", { prescription_id: { type: "string" } }, ["prescription_id"]);
  const price = tool(
    "drug_cash_price",
    { drug: { type: "string" }, dose: { type: "string" }, count: { type: "integer" } },
    ["drug", "dose", "count"],
  );
  const query = "how much does a supply of that medication cost";
  const answer = await answerOne(
    { query },
    deps([
      [price, 0.62],
      [refill, 0.6],
    ]),
  );
  assert.equal(answer.tool, "drug_cash_price", JSON.stringify(answer.steps[0]));
  // Close scores still favour the tool with fewer questions to ask.
  const close = await answerOne(
    { query },
    deps([
      [price, 0.605],
      [refill, 0.6],
    ]),
  );
  assert.equal(close.tool, "prescription_refill");
});
