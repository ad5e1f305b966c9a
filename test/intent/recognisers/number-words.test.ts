// Runs of number words read as one value each.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findNumberWords } from "../../../src/intent/recognisers/number-words.ts";

const cases: [string, [string, number][]][] = [
  ["one month after", [["one", 1]]],
  ["twenty five people", [["twenty five", 25]]],
  ["twenty-five", [["twenty-five", 25]]],
  ["three hundred and twelve", [["three hundred and twelve", 312]]],
  ["two thousand five hundred", [["two thousand five hundred", 2500]]],
  ["a hundred times", [["a hundred", 100]]],
  // A compound is no count.
  ["carbon-14 has a half-life of 5,730 years", []],
  [
    "split three ways, four of us",
    [
      ["three", 3],
      ["four", 4],
    ],
  ],
  ["two and a half hours", [["two and a half", 2.5]]],
  ["three and a quarter miles", [["three and a quarter", 3.25]]],
  ["twenty and a half", [["twenty and a half", 20.5]]],
  ["one and a dog", [["one", 1]]],
  // "One" standing for a thing named before is no number; after a label or an article it is.
  ["a hot reservoir at 600 K and a cold one at 300 K", []],
  ["the other one, or which one?", []],
  ["the number one hit", [["one", 1]]],
  ["a one hour meeting", [["one", 1]]],
  ["season one of the show", [["one", 1]]],
  ["nothing to count", []],
];

for (const [text, expected] of cases)
  test(`number words in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findNumberWords(text).map((n) => [n.text, n.value]),
      expected,
    );
  });
