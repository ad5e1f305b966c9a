// Route-and-execute over bare tools (no example requests or calls, as imported function definitions are),
// on a catalog this test makes up, with a stand-in router and runner: a call the bare bar holds back is
// proposed, not run; and a request of several parts each held back only by the bar is still answered part
// by part, naming each part's tool. Each tool has an optional unit the requests leave open, a doubt that
// keeps these calls under the bare bar.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RouteResponse } from "../../src/app/index.ts";
import { answerRequest } from "../../src/app/route-and-execute/request.ts";
import type { Tool } from "../../src/catalog/index.ts";

const num = (description: string) => ({ type: "number", description });
const tools: Tool[] = [
  {
    name: "box_volume",
    description: "Volume of a box",
    inputSchema: {
      type: "object",
      properties: {
        length: num("Length"),
        width: num("Width"),
        height: num("Height"),
        unit: { type: "string", description: "Unit" },
      },
      required: ["length", "width", "height"],
    },
  },
  {
    name: "circle_area",
    description: "Area of a circle",
    inputSchema: {
      type: "object",
      properties: { radius: num("The radius"), unit: { type: "string", description: "Unit" } },
      required: ["radius"],
    },
  },
];

function deps() {
  const ran: string[] = [];
  return {
    ran,
    deps: {
      route: async (request: { query: string }): Promise<RouteResponse> => {
        const words = request.query.toLowerCase();
        const ranked = tools.map((t) => ({
          name: t.name,
          score: words.includes(t.description.split(" ").at(-1)?.toLowerCase() ?? "") ? 0.6 : 0.05,
        }));
        ranked.sort((a, b) => b.score - a.score);
        return {
          query: request.query,
          matched: true,
          threshold: 0.1,
          tools: ranked,
        } as unknown as RouteResponse;
      },
      getTool: (name: string) => tools.find((t) => t.name === name),
      run: async (tool: Tool) => {
        ran.push(tool.name);
        return { status: "completed" as const, tool: tool.name, steps: [] };
      },
      noMatch: async () => ({ status: "no_match" as const, steps: [] }),
    },
  };
}

test("a bare tool's call under its bar is proposed with its values, not run", async () => {
  const { ran, deps: d } = deps();
  const answer = await answerRequest({ query: "the area of a circle with radius 2" }, d);
  assert.deepEqual(ran, []);
  assert.equal(answer.status, "needs_input");
  assert.equal(answer.tool, "circle_area");
  assert.deepEqual(
    answer.suggested?.map((v) => [v.field, v.value]),
    [["radius", 2]],
  );
});

test("parts held back only by the bar keep the split: each part names its tool, none runs", async () => {
  const { ran, deps: d } = deps();
  const answer = await answerRequest(
    {
      query:
        "Find the volume of a box with length 3, width 4 and height 5, and then find the area of a circle with radius 2.",
    },
    d,
  );
  assert.deepEqual(ran, []);
  assert.deepEqual(
    answer.intents?.map((part) => [part.status, part.tool]),
    [
      ["needs_input", "box_volume"],
      ["needs_input", "circle_area"],
    ],
  );
});

/** One tool, routed just above the threshold (0.1): under the margin a described tool needs to be asked about. */
function justAbove(tool: Tool) {
  const ran: string[] = [];
  return {
    ran,
    deps: {
      route: async (request: { query: string }): Promise<RouteResponse> =>
        ({
          query: request.query,
          matched: true,
          threshold: 0.1,
          tools: [{ name: tool.name, score: 0.14 }],
        }) as unknown as RouteResponse,
      getTool: (name: string) => (name === tool.name ? tool : undefined),
      run: async (t: Tool) => {
        ran.push(t.name);
        return { status: "completed" as const, tool: t.name, steps: [] };
      },
      noMatch: async () => ({ status: "no_match" as const, steps: [] }),
    },
  };
}

const artistTool: Tool = {
  name: "concert_search",
  description: "Find upcoming concerts",
  inputSchema: {
    type: "object",
    properties: { performer: { type: "string", description: "Who performs" } },
    required: ["performer"],
  },
};

test("a bare tool over the threshold whose value the words do not give is named, not declined", async () => {
  const { ran, deps: d } = justAbove(artistTool);
  const answer = await answerRequest({ query: "when does my favourite band play next" }, d);
  assert.deepEqual(ran, []);
  assert.equal(answer.status, "needs_input");
  assert.equal(answer.tool, "concert_search");
  assert.deepEqual(
    answer.missing?.map((m) => m.field),
    ["performer"],
  );
});

test("the same tool with example requests needs a margin over the threshold to be asked about", async () => {
  const described: Tool = { ...artistTool, examples: ["find concerts by Adele"] };
  const { ran, deps: d } = justAbove(described);
  const answer = await answerRequest({ query: "when does my favourite band play next" }, d);
  assert.deepEqual(ran, []);
  assert.equal(answer.status, "no_match");
});

test("a bare tool that requires nothing is not run on its defaults by weak words", async () => {
  const noArgs: Tool = {
    name: "random_fact",
    description: "A random fact",
    inputSchema: { type: "object", properties: { topic: { type: "string", description: "Topic" } } },
  };
  const { ran, deps: d } = justAbove(noArgs);
  const answer = await answerRequest({ query: "when does my favourite band play next" }, d);
  assert.deepEqual(ran, []);
  assert.equal(answer.status, "no_match");
});
