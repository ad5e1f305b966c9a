// A binding's `map`: what it makes of an answer, and what the static check finds against the outputSchema.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  applyMapping,
  MappingError,
  mappingIssues,
  type OutputMap,
  type Tool,
  toolSchema,
} from "../../src/catalog/index.ts";

test("paths, renames, constants, conversions, lookups, switches and array projections", () => {
  const map: OutputMap = {
    city: { path: "station.city" },
    temperature: { path: "temperature.value", convert: "kelvin_to_celsius", round: 1 },
    wind: { path: "wind.mps", convert: "mps_to_kmh" },
    humidity: { path: "readings.0.humidity", as: "number" },
    conditions: { path: "summary", text: "lower" },
    sky: { path: "code", lookup: { "0": "clear", "3": "overcast" }, default: "unknown" },
    units: { switch: "$args.units", cases: { imperial: { const: "°F" } }, otherwise: { const: "°C" } },
    place: { object: { lat: { path: "pos.0" }, lon: { path: "pos.1" } } },
    alerts: { path: "warnings", each: { object: { title: { path: "headline", text: "upper" } } } },
    tags: { path: "tags", each: { path: "$" } },
    missing: { path: "no.such.field" },
  };
  const answer = {
    station: { city: "Oslo" },
    temperature: { value: 294.65 },
    wind: { mps: 5 },
    readings: [{ humidity: "81" }],
    summary: "Light Rain",
    code: 3,
    pos: [59.9, 10.7],
    warnings: [{ headline: "wind" }, { headline: "ice" }],
    tags: ["a", "b"],
  };
  assert.deepEqual(applyMapping(map, answer, { units: "metric" }), {
    city: "Oslo",
    temperature: 21.5,
    wind: 18,
    humidity: 81,
    conditions: "light rain",
    sky: "overcast",
    units: "°C",
    place: { lat: 59.9, lon: 10.7 },
    alerts: [{ title: "WIND" }, { title: "ICE" }],
    tags: ["a", "b"],
  });
  assert.equal(applyMapping(map, { ...answer, code: 99 }, { units: "imperial" }).units, "°F");
  assert.equal(applyMapping(map, { ...answer, code: 99 }, {}).sky, "unknown");
});

test("a value that does not convert is an issue at its output path, not a silent NaN", () => {
  const map: OutputMap = {
    a: { path: "x", as: "number" },
    b: { object: { c: { path: "y", convert: "mph_to_kmh" } } },
    d: { path: "z", each: { path: "$" } },
  };
  assert.throws(
    () => applyMapping(map, { x: "warm", y: "fast", z: 3 }, {}),
    (error: unknown) =>
      error instanceof MappingError &&
      JSON.stringify(error.issues) ===
        JSON.stringify([
          { path: "a", message: '"warm" is not a number' },
          { path: "b.c", message: '"fast" is not a number to convert' },
          { path: "d", message: '"z" is not an array' },
        ]),
  );
});

const tool = (map: unknown): unknown => ({
  name: "weather",
  description: "Weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
  outputSchema: {
    type: "object",
    properties: {
      city: { type: "string" },
      temperature: { type: "number" },
      source: { type: "string", enum: ["a", "b"] },
      alerts: { type: "array", items: { type: "object", properties: { title: { type: "string" } } } },
    },
    required: ["city", "temperature"],
  },
  binding: { type: "http", method: "GET", url: "https://example.com/{city}" },
  policy: { fallback: [{ type: "http", method: "GET", url: "https://example.org/{city}", map }] },
});

test("the static check names each wrong part of a mapping by its path in the tool", () => {
  const good = toolSchema.parse(
    tool({
      city: { path: "$args.city" },
      temperature: { path: "t", as: "number" },
      source: { const: "b" },
      alerts: { path: "w", each: { object: { title: { path: "h", text: "lower" } } } },
    }),
  ) as Tool;
  assert.deepEqual(mappingIssues(good), []);
  const bad = toolSchema.parse(
    tool({
      town: { path: "$args.town" },
      temperature: { path: "t", text: "trim" },
      source: { const: "c" },
      alerts: { path: "w", each: { object: { titel: { path: "h" } } } },
    }),
  ) as Tool;
  assert.deepEqual(
    mappingIssues(bad).map((i) => i.path),
    [
      "policy.fallback.0.map.town",
      "policy.fallback.0.map.town.path",
      "policy.fallback.0.map.temperature",
      "policy.fallback.0.map.source.const",
      "policy.fallback.0.map.alerts.each.object.titel",
      "policy.fallback.0.map",
    ],
  );
  const messages = mappingIssues(bad).map((i) => i.message);
  assert.match(messages[0] ?? "", /no field "town"/);
  assert.match(messages[1] ?? "", /argument "town"/);
  assert.match(messages[2] ?? "", /makes a string, but the outputSchema wants number/);
  assert.match(messages[3] ?? "", /not one of/);
  assert.match(messages[5] ?? "", /requires "city"/);
});

test("the zod schema refuses a mapping that is not one of its forms, at the exact place", () => {
  const parsed = toolSchema.safeParse(
    tool({ city: { path: "c", const: "x" }, temperature: { path: "t", convert: "furlongs" } }),
  );
  assert.equal(parsed.success, false);
  const places = parsed.error?.issues.map((i) => i.path.join("."));
  assert.deepEqual(places, ["policy.fallback.0.map.city", "policy.fallback.0.map.temperature.convert"]);
});

test("a switch on a provider's value never picks an Object method as its case", () => {
  const map: OutputMap = {
    kind: { switch: "type", cases: { a: { const: "A" } }, otherwise: { const: "other" } },
  };
  for (const type of ["constructor", "toString", "__proto__", "hasOwnProperty"])
    assert.deepEqual(applyMapping(map, { type }, {}), { kind: "other" }, type);
  assert.deepEqual(applyMapping(map, { type: "a" }, {}), { kind: "A" });
});
