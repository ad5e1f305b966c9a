// Times of day, and date-times read as one value whose time is not read again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findTimes } from "../../../src/intent/recognisers/times.ts";

const cases: [string, { times: string[]; datetimes: string[] }][] = [
  ["what is 3pm London time in Sydney", { times: ["3pm"], datetimes: [] }],
  ["meet at 9:30 am or 15:00", { times: ["9:30 am", "15:00"], datetimes: [] }],
  ["convert 2024-01-15 14:00 Tokyo time", { times: [], datetimes: ["2024-01-15 14:00"] }],
  ["epoch for 2021-01-01T00:00:00Z", { times: [], datetimes: ["2021-01-01T00:00:00Z"] }],
  ["the date 2024-01-15 alone", { times: [], datetimes: [] }],
  ["epoch for July 4th 2026 at noon", { times: ["noon"], datetimes: [] }],
  ["the backup runs at midnight", { times: ["midnight"], datetimes: [] }],
];

for (const [text, expected] of cases)
  test(`times in ${JSON.stringify(text)}`, () => {
    const found = findTimes(text);
    assert.deepEqual(
      { times: found.times.map((t) => t.text), datetimes: found.datetimes.map((t) => t.text) },
      expected,
    );
  });
