// Values known by their shape: versions, colours, expressions (function names included), cron lines and
// identifiers.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findShapes, type Shapes } from "../../../src/intent/recognisers/shapes.ts";

const cases: [string, keyof Shapes, string[]][] = [
  ["is 1.2.10 newer than 1.2.9", "versions", ["1.2.10", "1.2.9"]],
  // A version that ends a sentence.
  ["bump it from 0.4.7 to 0.5.0. Is that breaking?", "versions", ["0.4.7", "0.5.0"]],
  ["compare 3.0.0-beta.1 and 3.0.0", "versions", ["3.0.0-beta.1", "3.0.0"]],
  ["convert #ff0000 to rgb", "colors", ["#ff0000"]],
  ["the hex for rgb(0, 128, 255)", "colors", ["rgb(0, 128, 255)"]],
  // A CSS colour's name, where the request talks of colours; beside a written colour, names are choices.
  ["give me the RGB values for the CSS colour coral", "colors", ["coral"]],
  ["order the red shoes in size 9", "colors", []],
  ["what text colour reads best on #1e90ff, black or white?", "colors", ["#1e90ff"]],
  ["what is sqrt(144) + 3^2", "expressions", ["sqrt(144) + 3^2"]],
  ["calculate 12 * (7 + 3) / 4", "expressions", ["12 * (7 + 3) / 4"]],
  ["what is 6 × 7 ÷ 2", "expressions", ["6 × 7 ÷ 2"]],
  ["the date 2024-01-01", "expressions", []],
  ["explain */5 * * * *", "crons", ["*/5 * * * *"]],
  ["run it at */15 9-17 * * 1-5", "crons", ["*/15 9-17 * * 1-5"]],
  ["at 0 0,12 1 */2 1-5", "crons", ["0 0,12 1 */2 1-5"]],
  ["remove the duplicates from 3, 5, 3, 9, 5", "crons", []],
  ["convert myVariableName to snake_case", "tokens", ["myVariableName", "snake_case"]],
  [
    "kebab-case UserProfileCard and XMLHttpRequestHandler",
    "tokens",
    ["UserProfileCard", "XMLHttpRequestHandler"],
  ],
  // Two humps are as often a brand's name.
  ["pay with PayPal, then star it on GitHub", "tokens", []],
  ["url decode caf%C3%A9", "tokens", ["caf%C3%A9"]],
  // A file's or a release's name is one value, dots and extension included; a host name is not one.
  ["sha256 of release-4.2.0", "tokens", ["release-4.2.0"]],
  ["What key does nightly-2025-11-30.tar get?", "tokens", ["nightly-2025-11-30.tar"]],
  ["dns records for api-eu.example.com", "tokens", []],
];

for (const [text, kind, expected] of cases)
  test(`${kind} in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findShapes(text)[kind].map((m) => m.text.trim()),
      expected,
    );
  });

test("shapes stay linear on long adversarial text", () => {
  for (const text of [
    "1+".repeat(50_000),
    "(".repeat(100_000),
    "sqrt(".repeat(20_000),
    "* ".repeat(50_000),
    "1,1 ".repeat(2_000),
  ])
    assert.ok(Array.isArray(findShapes(text).expressions));
  // Thousands of identifiers, each kept once and none held by another.
  assert.equal(findShapes("user_id ".repeat(4_000)).tokens.length, 4_000);
  assert.deepEqual(
    findShapes("base64-encode api_user:Winter#2025 and build-1023").tokens.map((t) => t.text),
    ["api_user:Winter#2025", "build-1023"],
  );
});
