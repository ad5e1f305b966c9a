// The call-level signals in route-and-execute's answer, on a made-up catalog with a stand-in router and
// runner: a stated value the call leaves unused, a tool the router scores barely above its bar, and a tool
// run in place of the router's first each lower the call's confidence to their row of the table; under the
// bar the call is proposed (needs_input, with every value read as `suggested`), not run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerOne } from "../../src/app/route-and-execute/answer.ts";
import type { RouteAndExecuteResponse } from "../../src/app/types.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { FILL_CONFIDENCE, FILL_CONFIDENCE_BAR } from "../../src/intent/index.ts";
import { describedTool, standInDeps } from "./stand-in-answer.ts";

const tool = describedTool;

const shift = tool(
  "shift_span",
  { amount: { type: "integer" }, unit: { type: "string", enum: ["days", "weeks"] } },
  ["amount", "unit"],
);
const tally = tool("tally", { numbers: { type: "array", items: { type: "number" } } }, ["numbers"]);
const facts = tool("day_facts", { day: { type: "string", format: "date" } }, ["day"]);
const recase = tool(
  "recase",
  { text: { type: "string" }, to: { type: "string", enum: ["upper", "lower"] } },
  ["text", "to"],
);

const deps = standInDeps;

// biome-ignore lint/suspicious/noExplicitAny: a step's fields, read loosely
const argumentsStep = (answer: RouteAndExecuteResponse): any =>
  answer.steps.find((s) => s.step === "arguments");

const cases: [
  name: string,
  query: string,
  scores: [Tool, number][],
  signal: string | undefined,
  status: string,
][] = [
  ["every stated value used, the router sure", "shift it by 3 weeks", [[shift, 0.8]], undefined, "completed"],
  ["a target unit left unused", "shift 31 days to hours", [[shift, 0.8]], "unused_value", "needs_input"],
  [
    "the router barely above its bar, on values any tool could take",
    "the duplicates in 3, 9?",
    [[tally, 0.35]],
    "weak_route",
    "needs_input",
  ],
  [
    "the router barely above its bar, on a list of data only a list tool takes",
    "the duplicates in 3, 5, 3, 9?",
    [[tally, 0.35]],
    undefined,
    "completed",
  ],
  [
    "the router barely above its bar, on values of the tool's own",
    "shift it by 3 weeks",
    [[shift, 0.35]],
    undefined,
    "completed",
  ],
  [
    "a tool run in place of the router's first",
    "what day is it 3 weeks from the launch",
    [
      [facts, 0.62],
      [shift, 0.58],
    ],
    "switched",
    FILL_CONFIDENCE.switched >= FILL_CONFIDENCE_BAR ? "completed" : "needs_input",
  ],
  [
    "a tool run in place of the router's first, the router barely above its bar, on no exact value",
    "what day is it 3 weeks from the launch",
    [
      [facts, 0.45],
      [shift, 0.38],
    ],
    "switched+weak_route",
    "needs_input",
  ],
  [
    "the same switch when the request's opening verb names the tool's operation",
    "uppercase 'abc'",
    [
      [facts, 0.45],
      [recase, 0.38],
    ],
    "switched",
    FILL_CONFIDENCE.switched >= FILL_CONFIDENCE_BAR ? "completed" : "needs_input",
  ],
];

for (const [name, query, scores, signal, status] of cases)
  test(`call-level signal: ${name}`, async () => {
    const d = deps(scores);
    const answer = await answerOne({ query }, d);
    const step = argumentsStep(answer);
    assert.ok(step, JSON.stringify(answer.steps));
    const signals = signal ? signal.split("+") : [];
    assert.deepEqual(step.signals ?? [], signals);
    for (const s of signals)
      assert.ok(step.confidence <= FILL_CONFIDENCE[s as keyof typeof FILL_CONFIDENCE], step.confidence);
    assert.equal(answer.status, status, JSON.stringify(answer.missing));
    if (status === "needs_input") {
      assert.deepEqual(d.ran, [], "nothing ran");
      assert.equal(answer.tool, step.tool, "the answer names the tool");
      assert.ok((answer.suggested ?? []).length > 0, "the values read are suggested");
      for (const v of answer.suggested ?? []) assert.ok(v.span, "each with its span");
    } else
      assert.deepEqual(
        d.ran.map((r) => r.tool),
        [step.tool],
      );
  });

test("the unused value is named in what the answer asks", async () => {
  const answer = await answerOne({ query: "shift 31 days to hours" }, deps([[shift, 0.8]]));
  assert.ok(
    answer.missing?.some((m) => m.reason.includes('"hours"')),
    JSON.stringify(answer.missing),
  );
});
