// Lists written as data, with their spans; prose in brackets is no list.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findLists } from "../../../src/intent/recognisers/lists.ts";

const cases: [string, unknown[][]][] = [
  ["sum of [1, 2, 3]", [[1, 2, 3]]],
  [
    "a table [ [10, 20], [30, 40] ]",
    [
      [
        [10, 20],
        [30, 40],
      ],
    ],
  ],
  [
    "points (40.7128, -74.0060) and (34.0522, -118.2437)",
    [
      [40.7128, -74.006],
      [34.0522, -118.2437],
    ],
  ],
  ["columns ['Age', 'Income']", [["Age", "Income"]]],
  ["as noted (see above)", []],
  ["one value (5)", []],
  ["unbalanced [1, 2", []],
];

for (const [text, expected] of cases)
  test(`lists in ${JSON.stringify(text)}`, () => {
    const lists = findLists(text);
    assert.deepEqual(
      lists.map((l) => l.value),
      expected,
    );
    for (const l of lists) assert.equal(text.slice(l.start, l.end), l.text);
  });

test("a long run of opening brackets is read in linear time", () => {
  assert.deepEqual(findLists("[".repeat(50_000)), []);
});
