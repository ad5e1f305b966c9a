// A time of day with its date and zones, on a made-up schema: the date joins the time when it is written
// beside it or after the time's place ("9am in Los Angeles on 2025-03-10"); the place between them stays
// free for the source zone, and a zone followed by "time" is the target.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { schema, str } from "./made-up-schemas.ts";

const meeting = schema(
  {
    start_time: str("when, e.g. 2024-07-01 15:00 or 15:00"),
    source_zone: str("zone the time is in"),
    dest_zone: str("zone to show it in"),
  },
  ["start_time", "dest_zone"],
);

const cases: [query: string, expected: Record<string, string>][] = [
  [
    "Vendor call is at 9:30am India time (IST) on 12 March 2025. What's that for our New York office?",
    { start_time: "2025-03-12 09:30", source_zone: "Asia/Calcutta", dest_zone: "America/New_York" },
  ],
  [
    "What's 9am in Los Angeles on 2025-03-10 in London time?",
    { start_time: "2025-03-10 09:00", source_zone: "America/Los_Angeles", dest_zone: "Europe/London" },
  ],
  [
    "what time is it in Tokyo when it is 3pm on 2024-07-01 in New York",
    { start_time: "2024-07-01 15:00", source_zone: "America/New_York", dest_zone: "Asia/Tokyo" },
  ],
  [
    "show 2024-07-01 at 3pm from Paris to Tokyo",
    { start_time: "2024-07-01 15:00", source_zone: "Europe/Paris", dest_zone: "Asia/Tokyo" },
  ],
  [
    "Standup is 09:30 Berlin time on Monday 2025-11-03. What time is that for the folks in New York?",
    { start_time: "2025-11-03 09:30", source_zone: "Europe/Berlin", dest_zone: "America/New_York" },
  ],
  [
    "put it on my cal for march 3rd 2025 at 2pm, from Paris to Tokyo",
    { start_time: "2025-03-03 14:00", source_zone: "Europe/Paris", dest_zone: "Asia/Tokyo" },
  ],
  // A date written before the time with other words between is not the time's.
  [
    "on 2024-07-01 the call moved, 3pm from Paris to Tokyo",
    { start_time: "3pm", source_zone: "Europe/Paris", dest_zone: "Asia/Tokyo" },
  ],
];

for (const [query, expected] of cases)
  test(`time with its date: ${JSON.stringify(query)}`, () => {
    const fill = fillArguments(query, meeting);
    assert.deepEqual(fill.arguments, expected);
    assert.deepEqual(fill.missing, []);
  });

test("a date-time parameter takes the time of day written with its date", () => {
  const viewing = schema({ datetime: str("Viewing time, ISO 8601 (YYYY-MM-DDTHH:MM).") }, ["datetime"]);
  const cases: [query: string, value: string][] = [
    ["Schedule a viewing on June 2, 2025 at 17:30.", "2025-06-02T17:30"],
    ["a viewing at 5pm on 2025-06-02", "2025-06-02T17:00"],
    ["a viewing on 2025-06-02", "2025-06-02"],
    ["a viewing on July 4th 2026 at noon", "2026-07-04T12:00"],
  ];
  for (const [query, value] of cases)
    assert.equal(fillArguments(query, viewing).arguments.datetime, value, query);
});

test("a date parameter named or described as one takes a date", () => {
  const hostel = schema(
    { check_in: str("Check-in date, YYYY-MM-DD."), departure_date: str("When to leave") },
    ["check_in"],
  );
  assert.deepEqual(fillArguments("a dorm bed for 4 nights starting 2025-10-02", hostel).arguments, {
    check_in: "2025-10-02",
  });
  const leave = schema({ departure_date: str("When to leave") }, []);
  assert.deepEqual(fillArguments("leaving on 2025-10-09", leave).arguments, { departure_date: "2025-10-09" });
});

test("'today' goes to a date parameter that takes it, not to an optional one that defaults to it", () => {
  const paid = schema(
    { invoice: str("Invoice"), payment_date: str("Payment date, YYYY-MM-DD. Default is today.") },
    ["invoice"],
  );
  assert.equal(fillArguments("the payment came in today", paid).arguments.payment_date, undefined);
  const due = schema({ due: { type: "string", pattern: "^(\\d{4}-\\d{2}-\\d{2}|today)$" } }, []);
  assert.equal(fillArguments("due today", due).arguments.due, "today");
  const until = schema({ until: str('YYYY-MM-DD or "today"') }, []);
  assert.equal(fillArguments("count until today", until).arguments.until, "today");
});

test("a zone abbreviation right after the time is the time's own zone; the other is the target", () => {
  const cases: [query: string, source: string, dest: string][] = [
    ["what time is 9am PST in London", "America/Los_Angeles", "Europe/London"],
    ["convert 3pm EST to JST", "America/New_York", "Asia/Tokyo"],
    ["what is 15:00 CET in New York time", "Europe/Paris", "America/New_York"],
  ];
  for (const [query, source, dest] of cases) {
    const { arguments: args } = fillArguments(query, meeting);
    assert.deepEqual([args.source_zone, args.dest_zone], [source, dest], query);
  }
});

test("one zone named twice is no conversion: the target is asked for", () => {
  const fill = fillArguments("it's 2pm in New York; what time is it when it's 2pm in New York", meeting);
  assert.equal(fill.arguments.source_zone, "America/New_York");
  assert.equal(fill.arguments.dest_zone, undefined);
  assert.ok(
    fill.missing.some((m) => m.field === "dest_zone"),
    JSON.stringify(fill.missing),
  );
});

test("a date-time parameter takes RFC 3339 when the zone is written, and the wall time when it is not", () => {
  const after = { type: "object", properties: { from: { type: "string", format: "date-time" } } };
  const read = (query: string) => fillArguments(query, after).arguments.from;
  assert.equal(read("next two runs after 2025-11-20 00:00 UTC"), "2025-11-20T00:00:00Z");
  assert.equal(read("runs after 2025-06-01T00:00Z"), "2025-06-01T00:00:00Z");
  assert.equal(read("runs after 2025-06-01 9:30+0530"), "2025-06-01T09:30:00+05:30");
  // No zone: a wall time, which the schema's format then rejects and the caller is asked to confirm.
  assert.equal(read("runs after 2025-06-01 09:30"), "2025-06-01 09:30");
});
