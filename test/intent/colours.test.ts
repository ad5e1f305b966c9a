// Colours to the parameters named or described as colours, on a schema this test makes up: each to the one
// whose own word is right before or after it, else in the schema's order.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const contrast = {
  type: "object",
  properties: {
    foreground: { type: "string", description: "Text color, hex." },
    background: { type: "string", description: "Background color, hex." },
  },
  required: ["foreground", "background"],
};

const cases: [query: string, expected: Record<string, string>][] = [
  [
    "the contrast ratio between text color #333333 and background #fafafa",
    { foreground: "#333333", background: "#fafafa" },
  ],
  ["the contrast of #fafafa as background against #333333", { background: "#fafafa", foreground: "#333333" }],
  ["contrast between #000000 and #ffffff", { foreground: "#000000", background: "#ffffff" }],
];

for (const [query, expected] of cases)
  test(`colours in ${JSON.stringify(query)}`, () => {
    assert.deepEqual(fillArguments(query, contrast).arguments, expected);
  });
