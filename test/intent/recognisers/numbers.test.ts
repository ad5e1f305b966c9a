// Numbers in digits or words, with their cues; a letter after digits multiplies only money.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findNumbers } from "../../../src/intent/recognisers/numbers.ts";

const cases: [string, [text: string, value: number, next: string, percent: boolean, money: boolean][]][] = [
  [
    "15% of 240",
    [
      ["15%", 15, "of", true, false],
      ["240", 240, "", false, false],
    ],
  ],
  ["a 30m walk", [["30", 30, "m", false, false]]],
  // A price in cents after the words that state one is money.
  ["dinner came to 78.40 tonight", [["78.40", 78.4, "tonight", false, true]]],
  ["version 78.40 came out", [["78.40", 78.4, "came", false, false]]],
  // Underscores group a prefixed literal's digits.
  ["what is 0b1011_0110 in decimal", [["0b1011_0110", 182, "in", false, false]]],
  // A sign in words, unless a number or an operator before it makes it a subtraction.
  ["the OAT is minus 5 degrees", [["minus 5", -5, "degrees", false, false]]],
  ["a balance of negative 12.5", [["negative 12.5", -12.5, "", false, false]]],
  [
    "what is 10 minus 5",
    [
      ["10", 10, "minus", false, false],
      ["5", 5, "", false, false],
    ],
  ],
  // A multiple of pi is no number written.
  ["a sine wave from 0 to 2 pi", [["0", 0, "to", false, false]]],
  // The word a hyphen joins to a number is the word after it.
  ["a 72-hour forecast", [["72", 72, "hour", false, false]]],
  ["1.75m tall", [["1.75", 1.75, "m", false, false]]],
  ["300K in celsius", [["300", 300, "k", false, false]]],
  ["$5m loan", [["$5m", 5_000_000, "loan", false, true]]],
  ["a 300k mortgage", [["300k", 300_000, "mortgage", false, false]]],
  ["300k euros", [["300k", 300_000, "euros", false, true]]],
  ["1,234.5 million", [["1,234.5 million", 1_234_500_000, "", false, false]]],
  ["two hundred and five people", [["two hundred and five", 205, "people", false, false]]],
  ["one month after", [["one", 1, "month", false, false]]],
  ["a dozen eggs", [["a dozen", 12, "eggs", false, false]]],
  // A number a hyphen joins to the word before it is part of a name.
  ["in utf-8 and sha-256, 3 times", [["3", 3, "times", false, false]]],
  ["ten thousand dollars", [["ten thousand", 10_000, "dollars", false, true]]],
  // A decimal comma in an amount of money is one amount; elsewhere a comma separates numbers.
  [
    "total 96,80 € incl. 21%",
    [
      ["96,80", 96.8, "", false, true],
      ["21%", 21, "", true, false],
    ],
  ],
  [
    "1,2 and 3",
    [
      ["1", 1, "", false, false],
      ["2", 2, "and", false, false],
      ["3", 3, "", false, false],
    ],
  ],
  [
    "charges of 1e-9 and 2E+3",
    [
      ["1e-9", 1e-9, "and", false, false],
      ["2E+3", 2000, "", false, false],
    ],
  ],
  ["accelerating at 9.8 m/s^2", [["9.8", 9.8, "m", false, false]]],
  ["what is 0xff in decimal", [["0xff", 255, "in", false, false]]],
  ["0b1010", [["0b1010", 10, "", false, false]]],
  [
    "20 percent of 350",
    [
      ["20", 20, "percent", true, false],
      ["350", 350, "", false, false],
    ],
  ],
  ["no numbers here", []],
];

for (const [text, expected] of cases)
  test(`numbers in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findNumbers(text).map((n) => [text.slice(n.start, n.end), n.value, n.next, n.percent, n.money]),
      expected,
    );
  });
