// A place the request points at without naming it is asked for, never left to a zone's default; on a
// made-up schema. "there" as a sentence's subject points nowhere.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const clock = {
  type: "object",
  properties: { zone: { type: "string", description: "IANA time zone", default: "UTC" } },
};

const requests: [request: string, asks: boolean][] = [
  ["tell me the local time there at the moment", true],
  ["what time is it there right now", true],
  ["what's the time over there?", true],
  ["what time is it where my sister lives", true],
  ["their local time please", true],
  ["is there a way to get the time in UTC", false],
  ["there is a meeting soon, what time is it", false],
  ["what time is it", false],
];

for (const [request, asks] of requests)
  test(`${asks ? "asks for the place" : "names no place"}: ${JSON.stringify(request)}`, () => {
    const fill = fillArguments(request, clock);
    assert.equal(
      fill.missing.some((m) => m.field === "zone"),
      asks,
      JSON.stringify(fill.missing),
    );
  });
