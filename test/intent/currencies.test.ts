// Currency names to ISO 4217 codes, for a conversion whose parameters take codes; on a made-up schema.
import assert from "node:assert/strict";
import { test } from "node:test";
import { currencyCode } from "../../src/intent/currencies.ts";
import { fillArguments } from "../../src/intent/index.ts";
import { num, schema, str } from "./made-up-schemas.ts";

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

// A currency parameter of an imported definition says only "currency": no pattern, no word of codes.
const rate = {
  type: "object",
  properties: {
    base_currency: { type: "string", description: "The base currency." },
    target_currency: { type: "string", description: "The currency to convert to." },
    amount: { type: "number", description: "The amount to convert." },
  },
  required: ["base_currency", "target_currency"],
};
const worth = {
  type: "object",
  properties: {
    name: { type: "string" },
    currency: { type: "string", description: "The currency of the worth." },
  },
  required: ["name"],
};

const exchanges: [request: string, base: string | undefined, target: string | undefined][] = [
  ["the exchange rate from British pounds to Japanese yen", "GBP", "JPY"],
  ["How many Canadian dollars can I get for 500 US dollars?", "USD", "CAD"],
  ["what are €200 worth in Swiss francs", "EUR", "CHF"],
  ["how much is 20000 Japanese Yen in United States Dollar", "JPY", "USD"],
  ["rate of the yen to the euro", "JPY", "EUR"],
  ["how much is 250 quid in yen", "GBP", "JPY"],
  // One currency named: which side it is on is not said.
  ["the rate for euros", undefined, undefined],
  // Ordinary words that end a currency's name name no currency.
  ["the real rate I won from the mark to gold", undefined, undefined],
];

for (const [request, base, target] of exchanges)
  test(`currencies of ${JSON.stringify(request)}`, () => {
    const { arguments: args } = fillArguments(request, rate);
    assert.equal(args.base_currency, base);
    assert.equal(args.target_currency, target);
  });

test("a single currency parameter takes the one currency named, as its code", () => {
  assert.equal(fillArguments("the net worth in euro of Messi", worth).arguments.currency, "EUR");
  assert.equal(fillArguments("the net worth of Messi", worth).arguments.currency, undefined);
});

test("a symbol on an amount names its currency and leaves the amount to its parameter", () => {
  const goal = schema(
    {
      target_amount: num("Amount to save."),
      currency: str("Three-letter ISO currency code. Default is 'USD'."),
    },
    ["target_amount"],
  );
  assert.deepEqual(fillArguments("I want $6,500 by next year", goal).arguments, {
    currency: "USD",
    target_amount: 6500,
  });
});

test("a word that joins is no unit the description gives: 800 to start against 'Amount to save'", () => {
  const goal = schema({ target_amount: num("Amount to save.") }, ["target_amount"]);
  const fill = fillArguments("I'll put in 800 to start", goal);
  assert.notEqual(fill.filled[0]?.how, 'number in "to", as the description says');
});
