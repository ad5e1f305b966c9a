// A percentage for a rate: a fraction unless the schema says the rate is in percent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const one = (name: string, schema: Record<string, unknown>) => ({
  type: "object",
  properties: { [name]: schema },
  required: [name],
});

const cases: [string, string, Record<string, unknown>, unknown][] = [
  [
    "a rate with no unit is a fraction",
    "at a rate of 7%",
    one("annual_return", { type: "number", description: "The annual return rate." }),
    0.07,
  ],
  [
    "a description that says decimal",
    "expect 5% growth",
    one("growth", { type: "number", description: "As a decimal, e.g. 5% is 0.05" }),
    0.05,
  ],
  [
    "a rate in percent stays in percent",
    "at a rate of 7%",
    one("annual_rate_percent", { type: "number" }),
    7,
  ],
  [
    "a description that says percentage",
    "a yield of 5%",
    one("yearly_yield", { type: "number", description: "The yield as a percentage." }),
    5,
  ],
  ["a maximum above 1 means percent", "a rate of 4%", one("rate", { type: "number", maximum: 100 }), 4],
  ["an integer cannot be a fraction", "a rate of 4%", one("rate", { type: "integer" }), 4],
];

for (const [name, query, schema, expected] of cases)
  test(name, () => {
    const filled = fillArguments(query, schema);
    assert.deepEqual(Object.values(filled.arguments), [expected]);
  });

test("a number given per a period goes to the parameter that names that period", () => {
  const yieldOf = {
    type: "object",
    properties: {
      purchase_price: { type: "number", description: "Purchase price of the property." },
      monthly_rent: { type: "number", description: "Monthly rent collected." },
      annual_expenses: { type: "number", description: "Annual running costs. Default is 0." },
    },
    required: ["purchase_price", "monthly_rent"],
  };
  const query = "A flat bought for £240,000 rents for £1,150 a month and costs £2,400 a year to run.";
  assert.deepEqual(fillArguments(query, yieldOf).arguments, {
    purchase_price: 240000,
    monthly_rent: 1150,
    annual_expenses: 2400,
  });
});

test("the two ends of a range go to the parameters that name a start and an end", () => {
  const books = {
    type: "object",
    properties: {
      published_from: { type: "integer", description: "Earliest year. Optional." },
      published_to: { type: "integer", description: "Latest year. Optional." },
    },
  };
  const posting = {
    type: "object",
    properties: {
      salary_min: { type: "integer", description: "Bottom of the range." },
      salary_max: { type: "integer", description: "Top of the range." },
    },
  };
  assert.deepEqual(fillArguments("books published between 1965 and 1975", books).arguments, {
    published_from: 1965,
    published_to: 1975,
  });
  assert.deepEqual(fillArguments("a salary range of 85,000 to 105,000 EUR", posting).arguments, {
    salary_min: 85000,
    salary_max: 105000,
  });
});

test("how often in a period goes to the parameter that counts per that period", () => {
  const savings = {
    type: "object",
    properties: {
      principal: { type: "number" },
      compounds_per_year: { type: "integer", description: "Compounding periods per year", default: 12 },
    },
    required: ["principal"],
  };
  const cases: [query: string, count: number | undefined][] = [
    ["12000 at 8%, compounded once a year", 1],
    ["5000, interest added twice a year", 2],
    ["2000 compounded 4 times per year", 4],
    // Another period is no count per year.
    ["900, topped up once a month", undefined],
  ];
  for (const [query, count] of cases)
    assert.equal(fillArguments(query, savings).arguments.compounds_per_year, count, query);
});
