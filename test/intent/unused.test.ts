// The call-level signals of a fill, on made-up schemas: a stated value the call leaves unused, and a number
// that two parameters' words claim while one of them stays empty. Each lowers the call's confidence to its
// row of the table, so the call is proposed rather than run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FILL_CONFIDENCE, fillArguments } from "../../src/intent/index.ts";

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
});

const shift = object({ amount: { type: "integer" }, unit: { type: "string", enum: ["days", "weeks"] } }, [
  "amount",
  "unit",
]);
const codec = object({ text: { type: "string" }, action: { type: "string", enum: ["encode", "decode"] } }, [
  "text",
  "action",
]);
const pair = object({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]);
const share = object(
  { percent: { type: "number" }, base: { type: "number", description: "the value to take a share of" } },
  ["percent", "base"],
);
const tickets = object({ count: { type: "integer" } }, ["count"]);
const event = object({ date: { type: "string", format: "date" } }, ["date"]);

const cases: [query: string, schema: Record<string, unknown>, unused: string[]][] = [
  // A conversion's target unit the schema has no place for.
  ["convert 31 days to hours", shift, ["hours"]],
  ["how many hours are in 3 days", shift, ["hours"]],
  // A second quoted text for a single text parameter.
  ["encode 'switch' then encode 'a b'", codec, ["a b"]],
  // A number nobody took.
  ["add 5 and 7 and 9", pair, ["9"]],
  // A date beside the value that was read.
  ["3 tickets on 2024-07-01", tickets, ["2024-07-01"]],
  // A zone named as a clock that the call has no place for.
  ["the cutoff is on 2025-09-30. What's that in Chicago time?", event, ["Chicago"]],
  // A value in a sentence before the call's is context; one after may correct it.
  ["We met on 2024-07-01. Book 3 tickets", tickets, []],
  ["Book 3 tickets. No, make it 4", tickets, ["4"]],
  // Every stated value used.
  ["what is 15% of 240", share, []],
  ["shift by 3 weeks", shift, []],
  // A lone "one" is as often a pronoun as a quantity.
  ["one of us wants 3 tickets", tickets, []],
  ["the event on 2024-07-01", event, []],
  // The value taken, stated again ("429s … 429"), and a number in words that counts the list taken.
  ["a bunch of 3s in the log: what are 3 tickets", tickets, []],
  [
    "the last four runs: 4, 8, 15, 16",
    object({ numbers: { type: "array", items: { type: "number" } } }, ["numbers"]),
    [],
  ],
];

for (const [query, schema, unused] of cases)
  test(`stated values left unused: ${JSON.stringify(query)}`, () => {
    const fill = fillArguments(query, schema);
    assert.deepEqual(
      fill.unused.map((u) => u.text.replace(/^['"]|['"]$/g, "")),
      unused,
    );
    for (const u of fill.unused) assert.equal(query.slice(u.start, u.end), u.text, "each with its span");
    assert.equal(fill.signals.includes("unused_value"), unused.length > 0);
    if (unused.length > 0) assert.ok(fill.confidence <= FILL_CONFIDENCE.unused_value);
  });

test("a call that reads nothing from the request (the agent sent every value) has no unused values", () => {
  const fill = fillArguments("add these please, 4 and 5", pair, { a: 1, b: 2 });
  assert.deepEqual(fill.unused, []);
  assert.deepEqual(fill.signals, []);
});

test("a number two parameters' words claim, one of them left empty, is contested", () => {
  const split = object({ total: { type: "number" }, parts: { type: "integer", default: 1 } }, ["total"]);
  const examples = [
    { query: "divide a 120 total 3 ways", arguments: { total: 120, parts: 3 } },
    { query: "a total of 50", arguments: { total: 50 } },
  ];
  const contested = fillArguments("divide the total 4 ways", split, {}, { examples });
  assert.ok(contested.signals.includes("contested"), JSON.stringify(contested.filled));
  assert.ok(contested.confidence <= FILL_CONFIDENCE.contested);
  const framed = fillArguments(
    "repay 15000 over 36 months",
    object({ amount: { type: "number" }, years: { type: "number" }, months: { type: "integer" } }, [
      "amount",
    ]),
    {},
    { examples: [{ query: "repay 9000 over 3 years", arguments: { amount: 9000, years: 3 } }] },
  );
  assert.equal(framed.arguments.months, 36);
  assert.ok(!framed.signals.includes("contested"), "a preposition frames, it does not claim");
  const clear = fillArguments("divide a 90 total 4 ways", split, {}, { examples });
  assert.deepEqual(clear.arguments, { total: 90, parts: 4 });
  assert.ok(!clear.signals.includes("contested"));
});

const tint = object({ colour: { type: "string", description: "a hex colour such as #00ff00" } }, ["colour"]);
const counter = object({ text: { type: "string" } }, ["text"]);
const tintOutput = object(
  { hex: { type: "string" }, rgb: { type: "object", properties: { r: {}, g: {} } } },
  [],
);
const counterOutput = object({ words: { type: "integer" }, sentences: { type: "integer" } }, []);

const answeredTargets: [
  query: string,
  input: Record<string, unknown>,
  output: Record<string, unknown> | undefined,
  unused: string[],
][] = [
  // The target is what the tool's output names: the call answers it.
  ["convert #0000ff to rgb", tint, tintOutput, []],
  ['how many words are in "the quick brown fox"', counter, counterOutput, []],
  // A singular target names a plural output, and the other way round.
  ['how many sentences are in "One. Two."', counter, counterOutput, []],
  // Without an output schema, or one that does not name it, the target stays unused.
  ["convert #0000ff to rgb", tint, undefined, ["rgb"]],
  ['how many vowels are in "encyclopedia"', counter, counterOutput, ["vowels"]],
];

for (const [query, input, output, unused] of answeredTargets)
  test(`a target the output names is used: ${JSON.stringify(query)}, ${output ? "with" : "without"} output`, () => {
    const fill = fillArguments(query, input, {}, output ? { output } : {});
    assert.deepEqual(
      fill.unused.map((u) => u.text),
      unused,
    );
  });

test("a number the caller supplied that the request also names is that value, not an unplaced one", () => {
  const refund = {
    type: "object",
    properties: { order_id: { type: "string" }, amount: { type: "number", minimum: 0 } },
    required: ["order_id"],
  };
  const fill = fillArguments("I want my money back for order 1234", refund, { order_id: "1234" });
  assert.deepEqual(fill.missing, []);
  assert.deepEqual(fill.arguments, { order_id: "1234" });
  const other = fillArguments("I want my money back for order 1234", refund, { order_id: "99" });
  assert.deepEqual(
    other.missing.map((m) => m.field),
    ["amount"],
    "a number the caller did not supply is still asked about",
  );
});
