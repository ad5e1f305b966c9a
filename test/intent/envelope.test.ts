// A label an agent puts before the request it passes on: not routed on, and its numbers are no values.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments, requestStart } from "../../src/intent/index.ts";

const labels: [text: string, request: string][] = [
  ["User asks: how many kilometres is 26.2 miles?", "how many kilometres is 26.2 miles?"],
  ["[planner] step 3/5: evaluate sqrt(2025) + 7!", "evaluate sqrt(2025) + 7!"],
  ["agent: please convert 5 miles to km", "please convert 5 miles to km"],
  // An instruction with its data after the colon has no label.
  ["count the words in: the quick brown fox", "count the words in: the quick brown fox"],
  ["quick sanity check: (17+5)*3", "quick sanity check: (17+5)*3"],
  // A lead too long to be a label.
  [
    "here is what the customer wrote to us today: what is 2+2",
    "here is what the customer wrote to us today: what is 2+2",
  ],
  ["what is 2+2", "what is 2+2"],
  // A header that counts the requests after it.
  ["three things: 15% of 2,300; and 1.5 TB in GiB", "15% of 2,300; and 1.5 TB in GiB"],
  ["2 quick questions: what is 2+2", "what is 2+2"],
  // A step of a plan the agent works through.
  ["Task 1 of 3: Determine what percentage 27 is of 36.", "Determine what percentage 27 is of 36."],
  ["Step 2/5: hash 'abc'", "hash 'abc'"],
  ["Step 4 of the release checklist: is 5.0.0 newer than 4.9.9?", "is 5.0.0 newer than 4.9.9?"],
  ["Two things from the incident channel: what does HTTP 503 mean", "what does HTTP 503 mean"],
  ["Firmware notes, three things: 0xBEEF in decimal", "0xBEEF in decimal"],
];

for (const [text, request] of labels)
  test(`request after its label: ${JSON.stringify(text)}`, () => {
    assert.equal(text.slice(requestStart(text)), request);
  });

test("a label's numbers are neither placed nor left unused", () => {
  const schema = {
    type: "object",
    properties: { expression: { type: "string", description: "The arithmetic expression" } },
    required: ["expression"],
  };
  const fill = fillArguments("[planner] step 3/5: evaluate sqrt(2025) + 7!", schema);
  assert.equal(fill.arguments.expression, "sqrt(2025) + 7!");
  assert.deepEqual(fill.unused, []);
});

test("the request after a label is no data pasted after a colon: its numbers are values", () => {
  const convert = {
    type: "object",
    properties: {
      value: { type: "string", description: "The integer" },
      to_bases: { type: "array", items: { type: "integer" } },
    },
    required: ["value"],
  };
  const examples = [{ query: "what is 0xff in decimal", arguments: { value: "0xff", to_bases: [10] } }];
  const fill = fillArguments("chmod question: what is 0o755 in decimal?", convert, {}, { examples });
  assert.equal(fill.arguments.value, "0o755");
});
