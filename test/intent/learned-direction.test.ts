// A phrase the examples taught for one parameter ("binary" for a target base of 2) goes, when the request
// writes it after the other direction's word ("from binary"), to the parameter of that direction. On a
// made-up tool.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const radix = {
  type: "object",
  properties: {
    digits: { type: "string", description: "The integer" },
    from_radix: { type: "integer", description: "Defaults to 10" },
    to_radices: { type: "array", items: { type: "integer" } },
  },
  required: ["digits"],
};
const examples = [
  { query: "convert 255 to binary", arguments: { digits: "255", to_radices: [2] }, output: {} },
  { query: "what is 0xff in decimal", arguments: { digits: "0xff", to_radices: [10] }, output: {} },
  { query: "convert 64 to octal", arguments: { digits: "64", to_radices: [8] }, output: {} },
];

const cases: [query: string, expected: Record<string, unknown>][] = [
  ["convert 1010 from binary to decimal", { digits: "1010", from_radix: 2, to_radices: [10] }],
  ["convert 77 to binary", { digits: "77", to_radices: [2] }],
  // A base named before the target's ("in binary"), not joined to it, is the source.
  ["chmod 755 - what are those octal perms in binary?", { digits: "755", from_radix: 8, to_radices: [2] }],
  ["convert 255 to binary and octal", { digits: "255", to_radices: [2, 8] }],
];

for (const [query, expected] of cases)
  test(`learned phrases by direction: ${JSON.stringify(query)}`, () => {
    assert.deepEqual(fillArguments(query, radix, {}, { examples }).arguments, expected);
  });
