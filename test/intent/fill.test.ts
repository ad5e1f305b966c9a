// Arguments from the request's words, driven only by a schema: typed values with their spans, opaque values
// out of the routing text, "missing" instead of a default, and intents split with references resolved.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  fillArguments,
  findOpaqueValues,
  primaryValue,
  routingText,
  splitIntents,
  substituteReference,
} from "../../src/intent/index.ts";

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

test("a JWT is taken out of the routing text and fills the token parameter, with its span", () => {
  const query = `decode this jwt ${JWT}`;
  const opaque = findOpaqueValues(query);
  assert.deepEqual(
    opaque.map((o) => o.kind),
    ["jwt"],
  );
  assert.equal(routingText(query, opaque), "decode this jwt jwt");
  const filled = fillArguments(query, {
    type: "object",
    properties: { token: { type: "string" } },
    required: ["token"],
  });
  assert.deepEqual(filled.arguments, { token: JWT });
  assert.deepEqual(filled.filled[0]?.span, { start: 16, end: 16 + JWT.length, text: JWT });
  assert.deepEqual(filled.placedOpaque, ["jwt"]);
});

test("numbers go by their cue: a percentage to the rate, '<n> years' to years, the rest in schema order", () => {
  const schema = {
    type: "object",
    properties: {
      principal: { type: "number" },
      annual_rate_percent: { type: "number" },
      years: { type: "number" },
    },
    required: ["principal", "annual_rate_percent", "years"],
  };
  const { arguments: args, missing } = fillArguments(
    "monthly payment on a 300k loan at 6.5% for 30 years",
    schema,
  );
  assert.deepEqual(args, { annual_rate_percent: 6.5, years: 30, principal: 300000 });
  assert.deepEqual(missing, []);
});

test("enum values named in the text, quoted strings and dates in order", () => {
  const hash = fillArguments("md5 of 'hello'", {
    type: "object",
    properties: { text: { type: "string" }, algorithm: { type: "string", enum: ["sha256", "md5"] } },
    required: ["text"],
  });
  assert.deepEqual(hash.arguments, { algorithm: "md5", text: "hello" });
  const pattern = "^(\\d{4}-\\d{2}-\\d{2}|today)$";
  const days = fillArguments("days between 2024-01-01 and 2024-12-25", {
    type: "object",
    properties: { start: { type: "string", pattern }, end: { type: "string", pattern } },
    required: ["start", "end"],
  });
  assert.deepEqual(days.arguments, { start: "2024-01-01", end: "2024-12-25" });
});

test("a city names its IANA zone; a place no zone matches is missing, never the default", () => {
  const schema = { type: "object", properties: { timezone: { type: "string", default: "UTC" } } };
  assert.deepEqual(fillArguments("what time is it in New York", schema).arguments, {
    timezone: "America/New_York",
  });
  const atlantis = fillArguments("what time is it in Atlantis", schema);
  assert.deepEqual(atlantis.arguments, {});
  assert.equal(atlantis.missing[0]?.field, "timezone");
  assert.match(atlantis.missing[0]?.reason ?? "", /Atlantis/);
});

test("a required value the request does not give is missing; supplied arguments are kept", () => {
  const schema = { type: "object", properties: { token: { type: "string" } }, required: ["token"] };
  assert.deepEqual(
    fillArguments("decode this jwt", schema).missing.map((m) => m.field),
    ["token"],
  );
  const supplied = fillArguments("decode this jwt", schema, { token: "x.y.z" });
  assert.deepEqual(supplied.missing, []);
  assert.equal(supplied.filled[0]?.source, "agent");
});

test("units: '<n> <unit> to <unit>' and 'how many <unit> is <n> <unit>'", () => {
  const schema = {
    type: "object",
    properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
    required: ["value", "from", "to"],
  };
  assert.deepEqual(fillArguments("convert 100 km to miles", schema).arguments, {
    value: 100,
    from: "km",
    to: "miles",
  });
  assert.deepEqual(fillArguments("how many feet is 3 metres", schema).arguments, {
    value: 3,
    from: "metres",
    to: "feet",
  });
});

test("intents split on 'and then', ', then', '?' and a second verb, not inside 'between A and B'", () => {
  assert.deepEqual(splitIntents("convert 10 km to metres, then give that number in binary"), [
    "convert 10 km to metres",
    "give that number in binary",
  ]);
  assert.deepEqual(splitIntents("what time is it in Tokyo and in London"), [
    "what time is it in Tokyo",
    "what time is it in London",
  ]);
  assert.deepEqual(splitIntents("days between 2024-01-01 and 2024-12-25"), [
    "days between 2024-01-01 and 2024-12-25",
  ]);
  assert.equal(substituteReference("give that number in binary", 10000), "give 10000 in binary");
  assert.equal(
    primaryValue({ start: "2024-05-01", amount: 10, date: "2024-05-11" }, { date: "2024-05-01", amount: 10 }),
    "2024-05-11",
  );
});
