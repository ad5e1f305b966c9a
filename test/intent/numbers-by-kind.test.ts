// Numbers placed by their kind, never by their order: years to year parameters and money to revenues,
// and lists written as data to list parameters, on a schema this test makes up.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

test("years and revenues are not swapped when the money comes first", () => {
  const filled = fillArguments("growth for revenues of $1M in 2019 and $1.2M in 2020", {
    type: "object",
    properties: {
      year1: { type: "integer" },
      year1_revenue: { type: "number" },
      year2: { type: "integer" },
      year2_revenue: { type: "number" },
    },
    required: ["year1", "year1_revenue", "year2", "year2_revenue"],
  });
  assert.deepEqual(filled.arguments, {
    year1: 2019,
    year1_revenue: 1_000_000,
    year2: 2020,
    year2_revenue: 1_200_000,
  });
});

test("two tuples to two point parameters; 'two points' is no value", () => {
  const point = { type: "array", items: { type: "number" } };
  const filled = fillArguments("slope between two points (40.7, -74.0) and (34.1, -118.2)", {
    type: "object",
    properties: { point1: point, point2: point },
    required: ["point1", "point2"],
  });
  assert.deepEqual(filled.arguments, { point1: [40.7, -74], point2: [34.1, -118.2] });
});

test("a nested list for a list of lists", () => {
  const filled = fillArguments("test the table [ [10, 20], [30, 40] ]", {
    type: "object",
    properties: { table: { type: "array", items: { type: "array", items: { type: "integer" } } } },
    required: ["table"],
  });
  assert.deepEqual(filled.arguments, {
    table: [
      [10, 20],
      [30, 40],
    ],
  });
});

test("a unit the description names places each number, whatever their order", () => {
  const filled = fillArguments(
    "final speed after accelerating at 2 meters/second^2 for 5 seconds, starting at 10 meters/second",
    {
      type: "object",
      properties: {
        initial_velocity: { type: "number", description: "The starting velocity in meters/second." },
        acceleration: { type: "number", description: "The acceleration in meters/second^2." },
        time: { type: "number", description: "How long it lasts, in seconds." },
      },
      required: ["initial_velocity", "acceleration", "time"],
    },
  );
  assert.deepEqual(filled.arguments, { initial_velocity: 10, acceleration: 2, time: 5 });
});

test("the distinct word of the phrase a number is stated for outweighs the order", () => {
  const filled = fillArguments(
    "absolute pressure for a base pressure of 1 atm and a gauge pressure of 2 atm",
    {
      type: "object",
      properties: {
        gauge_pressure: { type: "number", description: "Measured pressure" },
        base_pressure: { type: "number", description: "Reference pressure" },
      },
      required: ["gauge_pressure", "base_pressure"],
    },
  );
  assert.deepEqual(filled.arguments, { gauge_pressure: 2, base_pressure: 1 });
  assert.ok(filled.filled.every((v) => v.evidence === "own_word"));
});

test("a unit every parameter shares tells none apart", () => {
  const filled = fillArguments("a box 3 meters by 4 meters", {
    type: "object",
    properties: {
      width: { type: "number", description: "Width in meters" },
      depth: { type: "number", description: "Depth in meters" },
    },
    required: ["width", "depth"],
  });
  assert.ok(filled.filled.every((v) => v.evidence === "order"));
});

test("a number left over once the required ones are placed is no value for an option", () => {
  const filled = fillArguments("a 2x2 table test on [ [10, 20], [30, 40] ]", {
    type: "object",
    properties: {
      table: { type: "array", items: { type: "array", items: { type: "integer" } } },
      alpha: { type: "number", description: "Significance level" },
    },
    required: ["table"],
  });
  assert.deepEqual(filled.arguments, {
    table: [
      [10, 20],
      [30, 40],
    ],
  });
});

test("a tool that requires nothing still takes its numbers by order", () => {
  const filled = fillArguments("roll 3 dice", {
    type: "object",
    properties: { count: { type: "integer", description: "How many" } },
  });
  assert.deepEqual(filled.arguments, { count: 3 });
});

const gainOrLoss = {
  type: "object",
  properties: {
    initial: { type: "integer", description: "The amount invested" },
    change: { type: "integer", description: "The amount gained or lost; a loss as a negative value" },
  },
  required: ["initial", "change"],
};
for (const [query, change] of [
  ["an investment of $5000 with a loss of $1000", -1000],
  ["we invested 3000 and lost 200", -200],
  ["an investment of $2000 with a gain of $500", 500],
  ["invested 800, a profit that dropped by 40", -40],
] as const)
  test(`a loss is negative where the description asks for it: "${query}"`, () => {
    assert.equal(fillArguments(query, gainOrLoss).arguments.change, change);
  });

test("a loss stays as stated where the description asks for no sign", () => {
  const filled = fillArguments("write off a loss of $1000", {
    type: "object",
    properties: { amount: { type: "number", description: "The amount written off" } },
    required: ["amount"],
  });
  assert.equal(filled.arguments.amount, 1000);
});

test("a unit word every numeric parameter's name shares does not place a number: the other words do", () => {
  const lens = {
    type: "object",
    properties: {
      focal_length_cm: { type: "number", description: "Focal length in cm." },
      object_distance_cm: { type: "number", description: "Distance of the object from the lens in cm." },
    },
    required: ["focal_length_cm", "object_distance_cm"],
  };
  const query = "An object sits 30 cm in front of a converging lens with a focal length of 10 cm.";
  const filled = fillArguments(query, lens);
  assert.equal(filled.arguments.focal_length_cm, 10);
  const cm = filled.filled.filter((v) => v.how?.includes('"cm"'));
  assert.deepEqual(cm, [], JSON.stringify(filled.filled));
});

test("a unit written short names the parameter that spells it out (90 mins: duration_minutes)", () => {
  const event = {
    type: "object",
    properties: { duration_minutes: { type: "integer" }, attendees_count: { type: "integer" } },
    required: ["duration_minutes"],
  };
  assert.equal(fillArguments("a call with 4 attendees, 90 mins", event).arguments.duration_minutes, 90);
});

test("a word two parameters name goes to the one its phrase names more of, never by order", () => {
  const schema = (properties: Record<string, unknown>) => ({
    type: "object",
    properties,
    required: Object.keys(properties),
  });
  const buffer = schema({
    base_concentration_m: { type: "number" },
    acid_concentration_m: { type: "number" },
    pka: { type: "number" },
  });
  const mixed = fillArguments("0.15 M acetic acid and 0.25 M sodium acetate, pKa 4.76", buffer);
  assert.equal(mixed.arguments.acid_concentration_m, 0.15);
  assert.equal(mixed.arguments.base_concentration_m, 0.25);
  const light = schema({ speed_of_light: { type: "integer" }, distance_in_light_years: { type: "integer" } });
  assert.equal(fillArguments("a star 4 light years away", light).arguments.distance_in_light_years, 4);
  // As many words named: the parameter whose name says least besides ("years", not payment_per_year).
  const annuity = schema({ payment_per_year: { type: "integer" }, years: { type: "integer" } });
  const paid = fillArguments("paying $1000 per year for 30 years", annuity);
  assert.deepEqual(paid.arguments, { payment_per_year: 1000, years: 30 });
  // A phrase after the unit names the parameter: "18 inch overhangs".
  const roof = schema({
    width_ft: { type: "number", description: "in feet" },
    overhang_in: { type: "number" },
  });
  assert.deepEqual(fillArguments("28 feet wide with 18 inch overhangs", roof).arguments, {
    width_ft: 28,
    overhang_in: 18,
  });
});
