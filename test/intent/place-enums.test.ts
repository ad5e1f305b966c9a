// Enum values named in the request, on a made-up schema: a plural value named in the singular is a count's
// unit only after the count, not a word of a name.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const schema = {
  type: "object",
  properties: {
    amount: { type: "integer" },
    unit: { type: "string", enum: ["days", "weeks", "months"] },
  },
  required: ["unit"],
};

const cases: [query: string, unit: string | undefined][] = [
  ["a 14 day trial", "days"],
  ["move it by 3 weeks", "weeks"],
  ["add one week", "weeks"],
  ["twice per month", "months"],
  ["what weekday is Christmas Day 2030?", undefined],
  ["plans for Mother's Day", undefined],
  ["how many days until Friday", "days"],
  ["a three-month notice period", "months"],
  ["over twenty-one days", "days"],
];

for (const [query, unit] of cases)
  test(`enum unit in ${JSON.stringify(query)}`, () => {
    assert.equal(fillArguments(query, schema).arguments.unit, unit);
  });

test("a bare tool's description names values in quotes: one named in the request is taken as written there", () => {
  const forecast = {
    type: "object",
    properties: {
      city: { type: "string", description: "The city" },
      unit: {
        type: "string",
        description: "The temperature unit ('Celsius' or 'Fahrenheit'). Default is 'Celsius'.",
      },
    },
    required: ["city"],
  };
  const bare = fillArguments("average temperature in Austin in fahrenheit", forecast, {}, { bare: true });
  assert.equal(bare.arguments.unit, "Fahrenheit");
  assert.equal(bare.filled.find((v) => v.field === "unit")?.evidence, "described");
  // A described tool learns its phrasing from its examples instead; the quotes are not read.
  const described = fillArguments("average temperature in Austin in fahrenheit", forecast);
  assert.equal(described.arguments.unit, undefined);
  // Nothing named: the default is the tool's, not filled in.
  assert.equal(
    fillArguments("temperature in Austin", forecast, {}, { bare: true }).arguments.unit,
    undefined,
  );
});

test("a plural value named with a possessive ('master's students') is that value", () => {
  const level = {
    type: "object",
    properties: { level: { type: "string", enum: ["bachelors", "masters", "phd"] } },
    required: ["level"],
  };
  assert.equal(fillArguments("scholarships for master's students", level).arguments.level, "masters");
  assert.equal(fillArguments("scholarships for a bachelor's degree", level).arguments.level, "bachelors");
  assert.equal(fillArguments("scholarships for PhD students", level).arguments.level, "phd");
});

test("a code-like enum value is named with a hyphen or a space too (CRC-32, SHA 256)", () => {
  const digest = {
    type: "object",
    properties: { text: { type: "string" }, algorithm: { type: "string", enum: ["sha256", "md5", "crc32"] } },
    required: ["text"],
  };
  assert.equal(fillArguments("a CRC-32 checksum of 'hello'", digest).arguments.algorithm, "crc32");
  assert.equal(fillArguments("the SHA 256 of 'hello'", digest).arguments.algorithm, "sha256");
  assert.deepEqual(fillArguments("a CRC-32 checksum of 'hello'", digest).unused, []);
});

test("an enum value's words may be joined by a hyphen in the request", () => {
  const posting = {
    type: "object",
    properties: { employment_type: { type: "string", enum: ["full_time", "part_time", "contract"] } },
    required: ["employment_type"],
  };
  assert.equal(fillArguments("Post a full-time opening", posting).arguments.employment_type, "full_time");
});
