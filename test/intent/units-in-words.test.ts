// A conversion's quantity written in words ("two and a half hours"), on a made-up converter: read by the
// same patterns as digits, with every span on the words themselves.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { converter, schema } from "./made-up-schemas.ts";

const cases: [query: string, expected: Record<string, unknown> | undefined][] = [
  [
    "how many seconds are in two and a half hours",
    { quantity: 2.5, source_unit: "hours", target_unit: "seconds" },
  ],
  ["convert twenty five miles to km", { quantity: 25, source_unit: "miles", target_unit: "km" }],
  ["what is three hundred grams in ounces", { quantity: 300, source_unit: "grams", target_unit: "ounces" }],
  ["how many feet is a dozen yards", { quantity: 12, source_unit: "yards", target_unit: "feet" }],
  // Digits are read as before.
  ["convert 31 days to hours", { quantity: 31, source_unit: "days", target_unit: "hours" }],
  // A courtesy or who it is for may follow the target.
  [
    "it's thirty-two degrees celsius out, what's that in fahrenheit for my friend",
    { quantity: 32, source_unit: "degrees celsius", target_unit: "fahrenheit" },
  ],
  ["3 cups in ml please", { quantity: 3, source_unit: "cups", target_unit: "ml" }],
  // Words that are no conversion.
  ["two of us are coming", undefined],
];

for (const [query, expected] of cases)
  test(`units in words: ${JSON.stringify(query)}`, () => {
    const fill = fillArguments(query, converter);
    if (!expected) {
      assert.equal(
        fill.filled.some((v) => v.evidence === "units"),
        false,
      );
      return;
    }
    assert.deepEqual(fill.arguments, expected);
    for (const v of fill.filled) {
      assert.equal(v.evidence, "units");
      assert.equal(query.slice(v.span?.start, v.span?.end), v.span?.text, `${v.field} keeps its span`);
    }
    const quantity = fill.filled.find((v) => v.field === "quantity");
    assert.ok(quantity?.span && /\p{L}|\d/u.test(quantity.span.text));
  });

test("a quantity stated first and its target asked for after, and degrees written as deg", () => {
  const convert = {
    type: "object",
    properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
    required: ["value", "from", "to"],
  };
  assert.deepEqual(fillArguments("the tank is 5 US gallons. how many litres is that?", convert).arguments, {
    value: 5,
    from: "US gallons",
    to: "litres",
  });
  assert.deepEqual(fillArguments("68 deg F in celsius?", convert).arguments, {
    value: 68,
    from: "deg F",
    to: "celsius",
  });
});

test("digits with a fraction in words are one quantity: 2 and a half cups", () => {
  assert.deepEqual(fillArguments("How many grams is 2 and a half cups of flour?", converter).arguments, {
    quantity: 2.5,
    source_unit: "cups",
    target_unit: "grams",
  });
});

test("a unit parameter with an enum takes the enum's form of the unit written", () => {
  const units = ["tsp", "tbsp", "cup", "fl_oz", "ml", "l", "g", "kg", "oz", "lb"];
  const kitchen = schema(
    {
      quantity: { type: "number" },
      from_unit: { type: "string", enum: units },
      to_unit: { type: "string", enum: units },
    },
    ["quantity", "from_unit", "to_unit"],
  );
  assert.deepEqual(fillArguments("Convert 350 milliliters of milk to cups.", kitchen).arguments, {
    quantity: 350,
    from_unit: "ml",
    to_unit: "cup",
  });
  assert.deepEqual(fillArguments("12 tablespoons in teaspoons", kitchen).arguments, {
    quantity: 12,
    from_unit: "tbsp",
    to_unit: "tsp",
  });
});
