// A tool that answers for the present is set aside for a request about another time; table-driven on
// made-up tools.
import assert from "node:assert/strict";
import { test } from "node:test";
import { asksAnotherTime } from "../../src/app/route-and-execute/another-time.ts";
import type { Tool } from "../../src/catalog/index.ts";

const tool = (description: string): Tool => ({
  name: "t",
  description,
  inputSchema: { type: "object", properties: {} },
});
const clock = tool("Tells the current date and time in a time zone. Returns the local time.");
const forecast = tool("Weather forecast for the next days in a place.");

const cases: [tool: Tool, request: string, setAside: boolean][] = [
  [clock, "what time will the standup be for our Singapore colleagues?", true],
  [clock, "what time was it in Tokyo yesterday at noon", true],
  [clock, "what time is it in Tokyo", false],
  [clock, "is it already tomorrow in Tokyo? tell me the time there", false],
  [clock, "will I make it before closing? what time is it now in Lima", false],
  // A tool for another time is not set aside.
  [forecast, "will it rain next week in Paris", false],
];

for (const [t, request, setAside] of cases)
  test(`${setAside ? "sets aside" : "keeps"} "${t.description.slice(0, 20)}…" for ${JSON.stringify(request)}`, () => {
    assert.equal(asksAnotherTime(t, request), setAside);
  });
