// Numbers stated in another unit than the one a parameter's description gives, converted to it; numbers in
// that unit, or in no unit, as stated. Table-driven on schemas this test makes up.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const circuit = {
  type: "object",
  properties: {
    inductance: { type: "number", description: "The inductance (L) in henries (H)." },
    capacitance: { type: "number", description: "The capacitance (C) in farads (F)." },
  },
  required: ["inductance", "capacitance"],
};
const trip = {
  type: "object",
  properties: {
    distance: { type: "number", description: "Distance travelled in meters" },
    time: { type: "number", description: "Time taken in seconds (s)" },
  },
  required: ["distance", "time"],
};
const chip = {
  type: "object",
  properties: { capacitance: { type: "number", description: "Capacitance in microfarads (µF)" } },
  required: ["capacitance"],
};

const person = {
  type: "object",
  properties: {
    height: { type: "integer", description: "Height of the person in inches." },
    weight: { type: "number", description: "Weight in kilograms" },
  },
  required: ["height", "weight"],
};

const cases: [string, object, Record<string, number>][] = [
  [
    "an LC circuit with capacitance of 100µF and inductance of 50mH",
    circuit,
    { capacitance: 0.0001, inductance: 0.05 },
  ],
  ["capacitance 2 nF, inductance 3 H", circuit, { capacitance: 2e-9, inductance: 3 }],
  ["it went 5 kilometers in 20 seconds", trip, { distance: 5000, time: 20 }],
  ["it went 450 meters in 250ms", trip, { distance: 450, time: 0.25 }],
  ["someone 6 ft tall who weighs 2500 g", person, { height: 72, weight: 2.5 }],
  ["height 70 in, weight 80 kg", person, { height: 70, weight: 80 }],
  ["someone 70 in height, 80 in weight", person, { height: 70, weight: 80 }],
  // Described in the prefixed unit itself: the number is already in it.
  ["a capacitance of 47µF", chip, { capacitance: 47 }],
];

for (const [query, schema, expected] of cases)
  test(`in the described unit: "${query}"`, () => {
    assert.deepEqual(fillArguments(query, schema as Record<string, unknown>).arguments, expected);
  });
