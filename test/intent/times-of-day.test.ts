// Times of day to the parameters whose description asks for a clock time ("HH:MM, 24-hour"), on schemas this
// test makes up: a start and an end by "from … to …", a deadline by "by", each as the description writes it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { schema, str } from "./made-up-schemas.ts";

const parking = schema(
  {
    date: str("Date, YYYY-MM-DD."),
    start_time: str("Arrival time, HH:MM in 24-hour format."),
    end_time: str("Departure time, HH:MM in 24-hour format."),
  },
  ["date", "start_time", "end_time"],
);
const charge = schema({ ready_by: str("Time the car must be charged by, HH:MM 24-hour.") }, ["ready_by"]);
const appointment = schema(
  { date: str("Date, YYYY-MM-DD."), time: str("Start time in HH:MM, 24-hour format.") },
  ["date", "time"],
);
const meeting = schema({ time: str("When") }, ["time"]);

const cases: [query: string, schema: Record<string, unknown>, expect: Record<string, unknown>][] = [
  [
    "Reserve parking from 5:30 pm to 11 pm on August 9, 2025.",
    parking,
    { date: "2025-08-09", start_time: "17:30", end_time: "23:00" },
  ],
  ["Charge the car by 07:00.", charge, { ready_by: "07:00" }],
  ["Book it on 11 November 2025 at 2:15 pm.", appointment, { date: "2025-11-11", time: "14:15" }],
  // A time parameter that asks for no format keeps the time as written.
  ["meet at 3pm", meeting, { time: "3pm" }],
];

for (const [query, shape, expect] of cases)
  test(`times of day: ${JSON.stringify(query)}`, () => {
    assert.deepEqual(fillArguments(query, shape).arguments, expect);
  });
