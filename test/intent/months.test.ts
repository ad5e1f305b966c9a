// Months of a year, read as "YYYY-MM", and placed to a parameter for a month; a year parameter still takes
// the year, and a month's name is no place.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { findMonths } from "../../src/intent/recognisers/months.ts";

const found: [text: string, months: string[]][] = [
  ["spending in March 2025", ["2025-03"]],
  ["from Sept. 2024 to Jan 2025", ["2024-09", "2025-01"]],
  ["the report for 2025-03", ["2025-03"]],
  ["on 2025-03-10", []],
  ["a 2025 budget", []],
];

for (const [text, months] of found)
  test(`months in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findMonths(text).map((m) => m.value),
      months,
    );
  });

test("a month parameter takes the month; a year parameter the year; the month's name is no place", () => {
  const month = { type: "object", properties: { month: { type: "string", description: "Month, YYYY-MM." } } };
  assert.deepEqual(fillArguments("What did I spend in March 2025?", month).arguments, { month: "2025-03" });
  const yearly = {
    type: "object",
    properties: { year: { type: "integer" }, region: { type: "string" } },
    required: ["year"],
  };
  assert.deepEqual(fillArguments("sales in March 2025", yearly).arguments, { year: 2025 });
});
