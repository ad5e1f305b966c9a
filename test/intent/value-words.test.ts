// Enum values a made-up tool's example calls phrase without naming them: a word that at least two examples
// of one value use, and no example of another value, stands for that value. A request that names a value
// by its own words, or uses the words of two values, is not read this way.
import assert from "node:assert/strict";
import { test } from "node:test";
import { learnFromExamples } from "../../src/intent/examples.ts";
import { fillArguments } from "../../src/intent/index.ts";
import { num, schema } from "./made-up-schemas.ts";

const resize = schema(
  {
    mode: { type: "string", enum: ["grow", "shrink", "undo_grow"] },
    factor: num("how much, in percent"),
    size: num("the size to change"),
  },
  ["mode", "factor", "size"],
);

const examples = [
  { query: "make 40 bigger by 10%", arguments: { mode: "grow", factor: 10, size: 40 } },
  { query: "make a 300 box bigger by 5 percent", arguments: { mode: "grow", factor: 5, size: 300 } },
  { query: "trim 20% off 90", arguments: { mode: "shrink", factor: 20, size: 90 } },
  { query: "trim 90 by 3%", arguments: { mode: "shrink", factor: 3, size: 90 } },
  { query: "knock 15% off a 60 plank", arguments: { mode: "shrink", factor: 15, size: 60 } },
  {
    query: "it is 110 after a 10% growth, what was it originally",
    arguments: { mode: "undo_grow", factor: 10, size: 110 },
  },
];

test("a word two examples of one value use, and no other value's, is learned for it", () => {
  const words = learnFromExamples(examples)
    .valueWords.map((w) => `${w.word}=${w.value}`)
    .sort();
  // "make" and "bigger" (grow, twice each), "trim" and "off" (shrink, twice each); "originally" is used
  // once only.
  assert.deepEqual(words, ["bigger=grow", "make=grow", "off=shrink", "trim=shrink"]);
});

const cases: [query: string, mode: string | undefined][] = [
  ["trim 12% off 150", "shrink"],
  ["take 25% off a 80 plank", "shrink"],
  ["make 250 bigger by 20%", "grow"],
  // Named by its own words: read by them.
  ["grow 250 by 20%", "grow"],
  // The words of two values: neither.
  ["make it bigger, then trim 10% off 50", undefined],
  // A value's own words beside another's learned words: the two readings disagree, so it is asked.
  ["shrink 80 by 5% and make it bigger", undefined],
  // A word used by one example only is no phrase for its value.
  ["it was originally 110 with 10% on top", undefined],
  // Quoted text is data, not the request's words.
  ["label 40 'trim' by 5%", undefined],
];

for (const [query, mode] of cases)
  test(`value words: ${JSON.stringify(query)}`, () => {
    const fill = fillArguments(query, resize, {}, { examples });
    assert.equal(fill.arguments.mode, mode);
    const placed = fill.filled.find((v) => v.field === "mode");
    if (mode && placed?.evidence === "learned")
      assert.equal(query.slice(placed.span?.start, placed.span?.end), placed.span?.text);
  });

test("an enum value named by its words, where the examples' word for another value is there too, is asked for", () => {
  const percent = {
    type: "object",
    properties: {
      operation: { type: "string", enum: ["what_percent", "percent_change"] },
      a: { type: "number" },
      b: { type: "number" },
    },
    required: ["operation", "a", "b"],
  };
  const examples = [
    {
      query: "price went from 80 to 100, the percent increase",
      arguments: { operation: "percent_change", a: 80, b: 100 },
    },
    { query: "sales went down from 500 to 420", arguments: { operation: "percent_change", a: 500, b: 420 } },
    { query: "45 as a percentage of 180", arguments: { operation: "what_percent", a: 45, b: 180 } },
  ];
  const fill = fillArguments(
    "MRR went from 18,400 to 21,160. By what percent did it grow?",
    percent,
    {},
    { examples },
  );
  assert.equal(fill.arguments.operation, undefined);
  assert.ok(
    fill.missing.some((m) => m.field === "operation" && /went/.test(m.reason)),
    JSON.stringify(fill.missing),
  );
  const plain = fillArguments("18 is what percent of 72", percent, {}, { examples });
  assert.equal(plain.arguments.operation, "what_percent");
});

test("a number another argument took where it is written is phrased in words for this one", () => {
  const learned = learnFromExamples([
    {
      query: "2000 at 4% over 5 years, compounded quarterly",
      arguments: { principal: 2000, rate: 4, years: 5, periods: 4 },
    },
    {
      query: "1500 at 3% for 4 years compounded monthly",
      arguments: { principal: 1500, rate: 3, years: 4, periods: 12 },
    },
    {
      query: "what will 1000 at 5% for 10 years be",
      arguments: { principal: 1000, rate: 5, years: 10, periods: 1 },
    },
  ]);
  const phrases = learned.phrases.filter((p) => p.param === "periods").map((p) => [p.phrase, p.value]);
  assert.ok(
    phrases.some(([phrase, value]) => phrase === "quarterly" && value === 4),
    JSON.stringify(phrases),
  );
  // An auxiliary verb is no phrase for a value.
  assert.ok(!phrases.some(([phrase]) => phrase === "will"), JSON.stringify(phrases));
});
