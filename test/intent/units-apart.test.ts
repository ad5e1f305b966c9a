// A quantity and the one other unit of its kind named apart from it ("… 2.4 bar … the gauge is in psi"),
// on a made-up converter; two such targets, or a unit of another kind, read nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { converter } from "./made-up-schemas.ts";

const cases: [query: string, expected: Record<string, unknown> | undefined][] = [
  [
    "tyres should be at 2.4 bar but the gauge is in psi. what do i set it to",
    { quantity: 2.4, source_unit: "bar", target_unit: "psi" },
  ],
  [
    "I run at 12 km/h. The plan is all in mph though, what speed is that?",
    { quantity: 12, source_unit: "km/h", target_unit: "mph" },
  ],
  ["a 4 TB drive. How many TiB should it show?", { quantity: 4, source_unit: "TB", target_unit: "TiB" }],
  // Another kind is no target; nor is one of two.
  ["I ran 5 km in 30 minutes", undefined],
  ["it weighs 3 kg; in pounds or in ounces, which reads better?", undefined],
];

for (const [query, expected] of cases)
  test(`a target unit apart from its quantity: ${JSON.stringify(query)}`, () => {
    const { arguments: args } = fillArguments(query, converter);
    if (expected) assert.deepEqual(args, expected);
    else assert.equal(args.target_unit, undefined);
  });
