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
