// A request that names several values for one single-valued parameter is answered as one part per value,
// on a catalog this test makes up, with the stand-in router and runner of stand-in-answer.ts (the weather
// tool first; the runner records each call). The rewriting itself is table-driven on the filler's report.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RouteResponse } from "../../src/app/index.ts";
import { onePerValue } from "../../src/app/route-and-execute/fan-out.ts";
import { answerRequest } from "../../src/app/route-and-execute/request.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { fillArguments } from "../../src/intent/index.ts";
import { standInDeps } from "./stand-in-answer.ts";

const text = (description: string) => ({ type: "string", description });
const tools: Tool[] = [
  {
    name: "city_weather",
    description: "Current weather in a city",
    inputSchema: { type: "object", properties: { city: text("The city") }, required: ["city"] },
    examples: ["the weather in Oslo"],
    exampleCalls: [
      { query: "the weather in Oslo", arguments: { city: "Oslo" }, output: {} },
      { query: "what's the weather like in Lima", arguments: { city: "Lima" }, output: {} },
    ],
  },
  {
    name: "play_artist",
    description: "Play songs by an artist for some minutes",
    inputSchema: {
      type: "object",
      properties: {
        artist: text("The artist"),
        minutes: { type: "number", description: "Play time in minutes" },
      },
      required: ["artist", "minutes"],
    },
  },
];

/** The stand-in router ranks the weather tool first, whatever the part. */
const standIns = () => standInDeps(tools.map((t, i): [Tool, number] => [t, i === 0 ? 0.7 : 0.05]));

const missingOf = (query: string, tool: Tool) =>
  fillArguments(query, tool.inputSchema as Record<string, unknown>).missing;
const [weather, play] = tools as [Tool, Tool];

const rewrites: { query: string; tool: Tool; parts: string[] | undefined }[] = [
  {
    query: "the weather in Paris and London",
    tool: weather,
    parts: ["the weather in Paris", "the weather in London"],
  },
  {
    query: "the weather in Paris, London and Rome today",
    tool: weather,
    parts: ["the weather in Paris today", "the weather in London today", "the weather in Rome today"],
  },
  {
    query: "play Nina Simone and Miles Davis for 20 minutes and 15 minutes respectively",
    tool: play,
    parts: ["play Nina Simone for 20 minutes", "play Miles Davis for 15 minutes"],
  },
  // Values told in clauses that differ in more than the value: no one list to write as one value.
  {
    query: "play Nina Simone for 20 minutes, then after a break of ten minutes play her for 15 minutes",
    tool: play,
    parts: undefined,
  },
  { query: "the weather in Paris", tool: weather, parts: undefined },
];

for (const r of rewrites)
  test(`one part per value: ${JSON.stringify(r.query)}`, () => {
    assert.deepEqual(onePerValue(r.query, missingOf(r.query, r.tool), 8), r.parts);
  });

test("lists of different lengths, or more values than parts allowed, are not fanned out", () => {
  const three = "the weather in Paris, London and Rome";
  assert.equal(onePerValue(three, missingOf(three, weather), 2), undefined);
  const query = "fly from Paris and London to Rome, Oslo and Lima";
  const several = (texts: string[]) =>
    texts.map((t) => ({ text: t, start: query.indexOf(t), end: query.indexOf(t) + t.length }));
  const missing = [
    { field: "from", schema: {}, reason: "", several: several(["Paris", "London"]) },
    { field: "to", schema: {}, reason: "", several: several(["Rome", "Oslo", "Lima"]) },
  ];
  assert.equal(onePerValue(query, missing, 8), undefined);
  assert.deepEqual(onePerValue(query, missing.slice(0, 1), 8), [
    "fly from Paris to Rome, Oslo and Lima",
    "fly from London to Rome, Oslo and Lima",
  ]);
});

test("several cities: one call per city, each once, in one accounted answer", async () => {
  const deps = standIns();
  const answer = await answerRequest({ query: "the weather in Paris and London" }, deps);
  assert.deepEqual(
    answer.intents?.map((part) => part.intent),
    ["the weather in Paris", "the weather in London"],
    JSON.stringify(answer),
  );
  const proposed = answer.intents?.map((part) => {
    const step = part.steps.find((s) => s.step === "arguments");
    return step?.step === "arguments" ? step.filled.map((v) => [v.field, v.value]) : undefined;
  });
  assert.deepEqual(proposed, [[["city", "Paris"]], [["city", "London"]]]);
  // Whatever the bar lets run, no call runs twice.
  assert.equal(new Set(deps.ran.map((c) => JSON.stringify(c))).size, deps.ran.length);
});

test("one value is answered whole, as before", async () => {
  const deps = standIns();
  const answer = await answerRequest({ query: "the weather in Paris" }, deps);
  assert.equal(answer.intents, undefined);
  assert.equal(answer.tool, "city_weather");
});

test('a list of numbers with one unit: one call per number, not a split at its last "and"', async () => {
  const convert: Tool = {
    name: "convert_length",
    description: "Convert a length between units",
    inputSchema: {
      type: "object",
      properties: {
        value: { type: "number", description: "The length" },
        from: text("Unit to convert from"),
        to: text("Unit to convert to"),
      },
      required: ["value", "from", "to"],
    },
  };
  const query = "convert 5, 10 and 20 miles to km";
  const missing = fillArguments(query, convert.inputSchema as Record<string, unknown>).missing.find(
    (m) => m.several,
  );
  assert.deepEqual(
    missing?.several?.map((v) => v.text),
    ["5", "10", "20"],
  );
  assert.deepEqual(onePerValue(query, [missing as NonNullable<typeof missing>], 8), [
    "convert 5 miles to km",
    "convert 10 miles to km",
    "convert 20 miles to km",
  ]);
  const between = fillArguments(
    "a length between 5 and 10 miles",
    convert.inputSchema as Record<string, unknown>,
  );
  assert.ok(!between.missing.some((m) => m.several));
});

test("no part per value when the router answers one part with another tool", async () => {
  const myth: Tool = {
    name: "myth_lookup",
    description: "Lookup of a mythical place",
    inputSchema: { type: "object", properties: { place: text("The place") }, required: ["place"] },
  };
  const deps = standIns();
  const route = async (request: { query: string }): Promise<RouteResponse> => {
    // Stand-in: "Atlantis" alone is a myth; the whole request and its Paris part are about weather.
    const mythical = request.query.includes("Atlantis") && !request.query.includes("Paris");
    const ranked = [
      { name: "city_weather", score: mythical ? 0.05 : 0.7 },
      { name: "myth_lookup", score: mythical ? 0.7 : 0.05 },
    ].sort((a, b) => b.score - a.score);
    return { query: request.query, matched: true, threshold: 0.1, tools: ranked } as unknown as RouteResponse;
  };
  const getTool = (name: string) => [...tools, myth].find((t) => t.name === name);
  const answer = await answerRequest(
    { query: "the weather in Paris and Atlantis" },
    { ...deps, route, getTool },
  );
  assert.equal(answer.intents, undefined, JSON.stringify(answer.intents?.map((p) => [p.intent, p.tool])));
  assert.equal(answer.tool, "city_weather");
});
