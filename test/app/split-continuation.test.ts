// When a split is one call told in parts, on a catalog this test makes up, with a stand-in router (a tool
// per keyword) and a stand-in runner: a part that only continues the first part's words and asks for a
// value the whole request gives is no request of its own; a part in words of its own is.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RouteResponse } from "../../src/app/index.ts";
import { answerRequest } from "../../src/app/route-and-execute/request.ts";
import type { Tool } from "../../src/catalog/index.ts";

const num = (description: string) => ({ type: "number", description });
const str = (description: string) => ({ type: "string", description });
const tool = (name: string, properties: Record<string, unknown>): Tool => ({
  name,
  description: name.replace(/_/g, " "),
  inputSchema: { type: "object", properties, required: Object.keys(properties) },
});
const tools: Tool[] = [
  tool("set_climate", {
    zone_id: str("Zone id"),
    temperature_c: num("Temperature in Celsius"),
    humidity_percent: num("Humidity in percent"),
  }),
  tool("zone_status", { zone_id: str("Zone id") }),
  tool("final_velocity", {
    initial_velocity: num("Initial velocity"),
    acceleration: num("Acceleration"),
    time: num("Time"),
  }),
  tool("distance_traveled", {
    initial_velocity: num("Initial velocity"),
    acceleration: num("Acceleration"),
    time: num("Time"),
  }),
];

/** The first tool whose keyword the query has, then the rest far below the threshold. */
const KEYWORDS: [string, string][] = [
  ["humidity", "set_climate"],
  ["distance", "distance_traveled"],
  ["velocity", "final_velocity"],
  ["zone", "zone_status"],
];

const deps = {
  route: async (request: { query: string }): Promise<RouteResponse> => {
    const words = request.query.toLowerCase();
    const best = KEYWORDS.find(([keyword]) => words.includes(keyword))?.[1];
    const ranked = tools.map((t) => ({ name: t.name, score: t.name === best ? 0.7 : 0.05 }));
    ranked.sort((a, b) => b.score - a.score);
    return { query: request.query, matched: true, threshold: 0.1, tools: ranked } as unknown as RouteResponse;
  },
  getTool: (name: string) => tools.find((t) => t.name === name),
  run: async (t: Tool) => ({ status: "completed" as const, tool: t.name, steps: [] }),
  noMatch: async () => ({ status: "no_match" as const, steps: [] }),
};

test("a part that continues the first part's words is one call with it", async () => {
  const answer = await answerRequest(
    { query: "Set greenhouse zone G2 to 24 degrees Celsius and 65% humidity" },
    deps,
  );
  assert.equal(answer.intents, undefined, JSON.stringify(answer.intents?.map((p) => p.intent)));
  assert.equal(answer.tool, "set_climate");
});

test("a part in words of its own stays a request of its own", async () => {
  const answer = await answerRequest(
    {
      query:
        "Calculate the final velocity given initial velocity of 20, acceleration of 5 and time of 6. Also compute the distance covered by the object.",
    },
    deps,
  );
  assert.deepEqual(
    answer.intents?.map((part) => part.tool),
    ["final_velocity", "distance_traveled"],
  );
});

test("a question that asks the previous part's tool for more, reading no value, joins that part", async () => {
  const answer = await answerRequest(
    {
      query: "Show the status of zone G2. What does the zone status show? Also the distance for 20, 5 and 6.",
    },
    deps,
  );
  assert.deepEqual(
    answer.intents?.map((part) => [part.tool, part.intent]),
    [
      ["zone_status", "Show the status of zone G2. What does the zone status show"],
      ["distance_traveled", "the distance for 20, 5 and 6."],
    ],
  );
});
