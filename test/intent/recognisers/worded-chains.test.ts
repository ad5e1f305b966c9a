// Arithmetic written out in words as a chain of operations, read as the expression it means.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findWordedChains } from "../../../src/intent/recognisers/worded-chains.ts";

const chains: [text: string, expressions: [written: string, symbols: string][]][] = [
  [
    "whats twelve point five times eight minus the cube root of twenty seven",
    [["twelve point five times eight minus the cube root of twenty seven", "12.5 * 8 - cbrt(27)"]],
  ],
  ["what is 12 times 4 plus 3", [["12 times 4 plus 3", "12 * 4 + 3"]]],
  ["9 squared plus 1", [["9 squared plus 1", "9^2 + 1"]]],
  ["one hundred and five divided by three", [["one hundred and five divided by three", "105 / 3"]]],
  ["2 to the power of 10 minus 24", [["2 to the power of 10 minus 24", "2 ^ 10 - 24"]]],
  // One operand, or numbers joined by "and" alone, are no chain.
  // An operator after a comma works on everything before it; ", and" still joins a list.
  ["what's 1440 divided by 36, times 7?", [["1440 divided by 36, times 7", "(1440 / 36) * 7"]]],
  ["2 plus 3, then times 4", [["2 plus 3, then times 4", "(2 + 3) * 4"]]],
  [
    "5 times 3, and 4 minus 1",
    [
      ["5 times 3", "5 * 3"],
      ["4 minus 1", "4 - 1"],
    ],
  ],
  ["the square root of 1764", []],
  ["5 and 10 and 20", []],
  ["convert 5 miles to km", []],
];

for (const [text, expressions] of chains)
  test(`chains in ${JSON.stringify(text)}`, () => {
    const found = findWordedChains(text);
    assert.deepEqual(
      found.map((e) => [e.text, e.value]),
      expressions,
    );
    for (const e of found) assert.equal(text.slice(e.start, e.end), e.text, "each with its span");
  });
