// A bare tool (no example requests or calls) is gated by its own table and bar; its doubts come from the
// schema and the request alone. On a catalog this test makes up.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  BARE_FILL_CONFIDENCE_BAR,
  BARE_FILL_WEIGHTS,
  bareFillConfidence,
  DOUBTS,
  type Doubt,
  FILL_CONFIDENCE_BAR,
  fillArguments,
} from "../../src/intent/index.ts";
import { num, schema, str } from "./made-up-schemas.ts";

const box_volume = schema(
  { length: num("Length of the box"), width: num("Width of the box"), height: num("Height of the box") },
  ["length", "width", "height"],
);
const circle_area = schema({ radius: num("The radius"), unit: str("Unit of the radius") }, ["radius"]);
const greet = schema({ name: str("Who to greet") }, ["name"]);
const scale = schema({ factor: num("Scale factor"), steps: num("How many steps") }, ["factor"]);

const cases: { name: string; query: string; schema: Record<string, unknown>; doubts: Doubt[] }[] = [
  {
    name: "every value by its own word: no doubt",
    query: "Volume of a box with length 3, width 4 and height 5",
    schema: box_volume,
    doubts: [],
  },
  {
    name: "an optional word-valued parameter left open",
    query: "Area of a circle with radius 4 inches",
    schema: circle_area,
    doubts: ["optional_left"],
  },
  {
    name: "an optional number left open is no doubt by itself",
    query: "Scale by factor 2",
    schema: scale,
    doubts: [],
  },
  {
    name: "a number no parameter took",
    query: 'Greet "Ada" 3 times and then 7 more',
    schema: greet,
    doubts: ["value_left"],
  },
  {
    name: "numbers placed partly by their words, partly by order",
    query: "A box 3 by 4 with height 5",
    schema: box_volume,
    doubts: ["order_mixed"],
  },
];

for (const c of cases) {
  test(`doubts: ${c.name}`, () => {
    const filled = fillArguments(c.query, c.schema);
    assert.deepEqual([...filled.doubts].sort(), [...c.doubts].sort(), JSON.stringify(filled.filled));
  });
}

test("a bare tool's call is gated by the bare table and bar; a described tool's by the fitted one", () => {
  const query = "Volume of a box with length 3, width 4 and height 5";
  const described = fillArguments(query, box_volume);
  const bare = fillArguments(query, box_volume, {}, { bare: true });
  assert.equal(described.bar, FILL_CONFIDENCE_BAR);
  assert.equal(bare.bar, BARE_FILL_CONFIDENCE_BAR);
  assert.deepEqual(bare.arguments, described.arguments);
  assert.equal(bare.confidence, bareFillConfidence(bare.filled.map((v) => v.evidence ?? "order")));
});

test("a bare call's confidence is the logistic model's, each kind present counted once", () => {
  const weights = { ...BARE_FILL_WEIGHTS, bias: 1, own_word: 1, optional_left: -2, value_left: -3 };
  const rows: { kinds: Parameters<typeof bareFillConfidence>[0]; z: number }[] = [
    { kinds: [], z: 1 },
    { kinds: ["own_word"], z: 2 },
    { kinds: ["own_word", "own_word"], z: 2 },
    { kinds: ["own_word", "optional_left"], z: 0 },
    { kinds: ["own_word", "value_left"], z: -1 },
    { kinds: ["agent"], z: 1 },
  ];
  for (const row of rows)
    assert.equal(
      bareFillConfidence(row.kinds, weights),
      Math.round((1 / (1 + Math.exp(-row.z))) * 1000) / 1000,
      row.kinds.join(","),
    );
  for (const doubt of DOUBTS) assert.ok(doubt in BARE_FILL_WEIGHTS);
});

test("a bare fill that read nothing from the request is not held back", () => {
  const filled = fillArguments("say hello", schema({ name: str("Who") }, []), {}, { bare: true });
  assert.equal(filled.confidence, 1);
});
