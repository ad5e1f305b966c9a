// Currency names to ISO 4217 codes, for a conversion whose parameters take codes; on a made-up schema.
import assert from "node:assert/strict";
import { test } from "node:test";
import { currencyCode } from "../../src/intent/currencies.ts";
import { fillArguments } from "../../src/intent/index.ts";

const codes: [text: string, code: string | undefined][] = [
  ["euros", "EUR"],
  ["Canadian dollars", "CAD"],
  ["Japanese Yen", "JPY"],
  ["yen", "JPY"],
  ["dollars", "USD"],
  ["GBP", "GBP"],
  ["Swiss francs", "CHF"],
  ["kilograms", undefined],
];

for (const [text, code] of codes)
  test(`currency code of ${JSON.stringify(text)}`, () => {
    assert.equal(currencyCode(text), code);
  });

const exchange = {
  type: "object",
  properties: {
    amount: { type: "number" },
    from: { type: "string", pattern: "^[A-Za-z]{3}$", description: "ISO 4217 code of the source currency" },
    to: { type: "string", description: "ISO 4217 code of the target currency" },
  },
  required: ["amount", "from", "to"],
};
const units = {
  type: "object",
  properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
  required: ["value", "from", "to"],
};

test("a conversion between currencies named in words fills their codes; other units stay as written", () => {
  assert.deepEqual(fillArguments("what is 100 euros in dollars", exchange).arguments, {
    amount: 100,
    from: "EUR",
    to: "USD",
  });
  assert.deepEqual(fillArguments("convert 150 Euros to Canadian dollars", exchange).arguments, {
    amount: 150,
    from: "EUR",
    to: "CAD",
  });
  assert.deepEqual(fillArguments("convert 50 pounds to kg", units).arguments, {
    value: 50,
    from: "pounds",
    to: "kg",
  });
});
