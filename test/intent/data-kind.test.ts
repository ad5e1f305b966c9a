// The kind of data a request hands over after its instruction, routed on in the data's place.
import assert from "node:assert/strict";
import { test } from "node:test";
import { dataKind, fillArguments } from "../../src/intent/index.ts";

const kinds: [data: string, label: string, after: string][] = [
  ["(17+5)*3 - 2^4 = ?", "arithmetic expression", ""],
  ["sqrt(2025) + 7!", "arithmetic expression", ""],
  // A sentence after the expression asks about it.
  ["(1250 - 380) * 0.15 + 42. what does that come to?", "arithmetic expression", "what does that come to?"],
  ["4, 8, 15, 16, 23, 42. Give me the mean and the median.", "numbers", "Give me the mean and the median."],
  ["3 5 7", "numbers", ""],
  ['{"orders":[{"id":"A1"}]}', "json", ""],
  ["name;qty\nwidget;4\ngizmo;1", "csv rows", ""],
  ["a,b\n1,2", "csv rows", ""],
  ["`[1735689600123] WARN cache miss` - what UTC time is that?", "", "what UTC time is that?"],
  ["```\n120 135 98\n```\nwhat's the mean?", "numbers", "what's the mean?"],
  // Plain text, and text that only looks like the start of JSON.
  ["Ship it today. Fix it tomorrow.", "", ""],
  ["{not json", "", ""],
];

for (const [data, label, after] of kinds)
  test(`data kind of ${JSON.stringify(data)}`, () => {
    assert.deepEqual(dataKind(data), { label, after });
  });

test("a parameter that names CSV or JSON takes no data of the other kind", () => {
  const table = {
    type: "object",
    properties: { csv: { type: "string", description: "CSV text, first row the header" } },
    required: ["csv"],
  };
  const json = '{"service": "api", "replicas": 3}';
  assert.equal(fillArguments(`convert this to YAML: ${json}`, table).arguments.csv, undefined);
  assert.equal(fillArguments("convert this to JSON rows: a,b\n1,2", table).arguments.csv, "a,b\n1,2");
});

test("a cron parameter takes no base64 blob; a format parameter described as csv or json takes the word", () => {
  const cron = {
    type: "object",
    properties: { expression: { type: "string", description: "A five-field cron expression" } },
    required: ["expression"],
  };
  assert.equal(
    fillArguments("what does it say? ZGVwbG95IHdpbmRvdyBpcyAwMjowMC0wNDowMCBVVEM=", cron).arguments
      .expression,
    undefined,
  );
  assert.equal(fillArguments("explain */10 * * * *", cron).arguments.expression, "*/10 * * * *");
  const report = {
    type: "object",
    properties: { format: { type: "string", enum: ["csv", "json"], description: "csv or json" } },
    required: ["format"],
  };
  assert.equal(fillArguments("the report as json", report).arguments.format, "json");
});
