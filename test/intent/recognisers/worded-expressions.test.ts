// Arithmetic in words read as the expression it means, with its span; rates and plain counts are not.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findWordedExpressions } from "../../../src/intent/recognisers/worded-expressions.ts";

const cases: [string, [text: string, value: string][]][] = [
  ["what is 2 to the power of 10", [["2 to the power of 10", "2^10"]]],
  ["3 raised to 4", [["3 raised to 4", "3^4"]]],
  ["what's 9 squared", [["9 squared", "9^2"]]],
  ["1.5 cubed please", [["1.5 cubed", "1.5^3"]]],
  ["the square root of 1764", [["the square root of 1764", "sqrt(1764)"]]],
  ["cube root of 27", [["cube root of 27", "cbrt(27)"]]],
  ["12 times 4", [["12 times 4", "12 * 4"]]],
  ["100 divided by 8", [["100 divided by 8", "100 / 8"]]],
  ["what is 7 factorial", [["7 factorial", "7!"]]],
  ["the factorial of 10", [["the factorial of 10", "10!"]]],
  // A factorial is of a whole number.
  ["2.5 factorial", []],
  ["3 factorial + 1", []],
  // A percentage after the words is a rate on the number, not a second operand.
  ["200 times 15% more", []],
  ["3 times a week", []],
  ["increase 200 by 15%", []],
  // Part of a longer expression: reading only the worded part would drop the rest.
  ["2 to the power of 10 minus 24", []],
  ["5 + 3 squared", []],
];

for (const [text, expected] of cases)
  test(`worded expressions in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findWordedExpressions(text).map((e) => [e.text, e.value]),
      expected,
    );
    for (const e of findWordedExpressions(text)) assert.equal(text.slice(e.start, e.end), e.text);
  });
