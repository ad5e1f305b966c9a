// Dates as YYYY-MM-DD with their spans: ISO, "today", and dates in words with every part stated.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findDates } from "../../../src/intent/recognisers/dates.ts";

const cases: [string, [text: string, value: string][]][] = [
  [
    "days between 2024-01-01 and 2024-12-25",
    [
      ["2024-01-01", "2024-01-01"],
      ["2024-12-25", "2024-12-25"],
    ],
  ],
  ["what day of the week was July 20 1969", [["July 20 1969", "1969-07-20"]]],
  [
    "from Jan 5th, 2024 to 31 March 2024",
    [
      ["Jan 5th, 2024", "2024-01-05"],
      ["31 March 2024", "2024-03-31"],
    ],
  ],
  ["how long until today", [["today", "today"]]],
  // No year: the value would depend on the clock, so it is not read.
  ["on 3 May", []],
  // Unless the next date of the sentence states it.
  [
    "games between December 20 and December 31, 2024",
    [
      ["December 20", "2024-12-20"],
      ["December 31, 2024", "2024-12-31"],
    ],
  ],
  [
    "from Dec 28 to Jan 3, 2025",
    [
      ["Dec 28", "2024-12-28"],
      ["Jan 3, 2025", "2025-01-03"],
    ],
  ],
  ["due on March 5. The invoice is from April 2, 2024", [["April 2, 2024", "2024-04-02"]]],
  // A time of day read with the date is not the date's.
  ["book it on 11 November 2025 at 2:15 pm", [["on 11 November 2025", "2025-11-11"]]],
  ["parking from 5:30 pm to 11 pm on August 9, 2025", [["August 9, 2025", "2025-08-09"]]],
  ["version 1.2.3", []],
  // Figures with slashes: year first, or a day over 12 that says which number is the day.
  ["service on 2025/11/04", [["2025/11/04", "2025-11-04"]]],
  [
    "review on 7/15/2025, or 15/7/2025",
    [
      ["7/15/2025", "2025-07-15"],
      ["15/7/2025", "2025-07-15"],
    ],
  ],
  ["on 3/4/2025", []],
  ["path a/12/2025/x", []],
];

for (const [text, expected] of cases)
  test(`dates in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findDates(text).map((d) => [text.slice(d.start, d.end), d.value]),
      expected,
    );
  });
