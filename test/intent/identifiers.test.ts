// Identifiers after the word they identify, to the string parameter named for that word and an identifier,
// on schemas this test makes up; a short bare number after a verb is a count, not an id.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const str = { type: "string" };
const cases: { query: string; properties: Record<string, unknown>; expect: Record<string, unknown> }[] = [
  {
    query: "Can I return item SH-220 from order 55-8812?",
    properties: { order_id: str, item_sku: str },
    expect: { order_id: "55-8812", item_sku: "SH-220" },
  },
  {
    query: "close ticket #4411 please",
    properties: { ticket_number: str },
    expect: { ticket_number: "4411" },
  },
  { query: "status of ticket no. 12", properties: { ticket_number: str }, expect: { ticket_number: "12" } },
  {
    query: "the invoice INV-2024-001 is overdue",
    properties: { invoice_id: str },
    expect: { invoice_id: "INV-2024-001" },
  },
  {
    query: "What is playing on radio station KEXP?",
    properties: { station_id: str },
    expect: { station_id: "KEXP" },
  },
  {
    query: "Rotate the secret at path prod/db/password.",
    properties: { path: str },
    expect: { path: "prod/db/password" },
  },
  {
    query: "Compare health plans HP-1 and HP-3 for me.",
    properties: { plan_ids: { type: "array", items: str } },
    expect: { plan_ids: ["HP-1", "HP-3"] },
  },
  {
    query: "view statistics for the video channel @veritasium",
    properties: { channel_handle: str },
    expect: { channel_handle: "@veritasium" },
  },
  // A count, not an id; and a word the parameter does not name.
  { query: "order 5 pizzas", properties: { order_id: str }, expect: {} },
  { query: "ship package A1B2 today", properties: { order_id: str }, expect: {} },
  { query: "order new-style shoes", properties: { order_id: str }, expect: {} },
];

for (const c of cases)
  test(`identifiers in ${JSON.stringify(c.query)}`, () => {
    const filled = fillArguments(c.query, { type: "object", properties: c.properties });
    assert.deepEqual(filled.arguments, c.expect);
    for (const v of filled.filled) assert.equal(v.evidence, "own_word", v.field);
  });

test("a name beside the word it names, before or after it, for a parameter named for one thing", () => {
  const str = { type: "string" };
  const cases: [query: string, properties: Record<string, unknown>, expected: Record<string, unknown>][] = [
    [
      "restart the payments-api deployment in the prod-eu namespace",
      { namespace: str, deployment: str },
      { namespace: "prod-eu", deployment: "payments-api" },
    ],
    // A plain word before a bare name is a kind of thing, not its name; a quoted value it labels is its.
    ["the highest score in the online game Overwatch", { game: str }, {}],
    ["the highest score in the online game 'Overwatch'", { game: str }, { game: "Overwatch" }],
    ["list everything in bucket acme-prod-logs", { bucket: str }, { bucket: "acme-prod-logs" }],
    ["the thermostat's device id is therm-lr-02", { device_id: str }, { device_id: "therm-lr-02" }],
    ["try code SPRING25 on my cart", { code: str }, { code: "SPRING25" }],
    // Prose parameters take no name.
    ["read the secret at path prod/db/password", { path: str }, { path: "prod/db/password" }],
    ["a new-style title for the post", { title: str }, {}],
  ];
  for (const [query, properties, expected] of cases)
    assert.deepEqual(fillArguments(query, { type: "object", properties }).arguments, expected, query);
});

test("an identifier inside pasted data is part of the data: the data after the colon is the value", () => {
  const parse = { type: "object", properties: { csv: { type: "string" } }, required: ["csv"] };
  const data = "sku;qty;unit_price\nA-12;3;9.99\nB-07;10;1.5";
  const fill = fillArguments(`convert to JSON pls, it's from the warehouse export:\n${data}`, parse);
  assert.deepEqual(fill.arguments, { csv: data });
});

test("quoted values go to the parameters their labels name, before or after them, not by order", () => {
  const cases: [query: string, properties: Record<string, unknown>, expect: Record<string, unknown>][] = [
    [
      "Add 3 units of SKU 'KB-4471-BLK' to cart 'c_99812'.",
      { cart_id: str, sku: str },
      { cart_id: "c_99812", sku: "KB-4471-BLK" },
    ],
    [
      "Apply promo code 'SPRING25' to order '55021'.",
      { order_id: str, coupon_code: str },
      { order_id: "55021", coupon_code: "SPRING25" },
    ],
    [
      "renew the book with barcode '31234009876543' on library card '2290011'",
      { patron_card: str, item_barcode: str },
      { patron_card: "2290011", item_barcode: "31234009876543" },
    ],
    [
      "Post a review titled 'Solid kettle' that says 'Boils fast.'",
      { title: str, body: str },
      { title: "Solid kettle", body: "Boils fast." },
    ],
    [
      'Make a deck named "Spanish Verbs" with the terms "hablar", "comer" and "vivir".',
      { deck_name: str, terms: { type: "array", items: str } },
      { deck_name: "Spanish Verbs", terms: ["hablar", "comer", "vivir"] },
    ],
    [
      "Who reports to manager 'M-5521' in the 'Finance' department?",
      { manager_id: str, department: str },
      { manager_id: "M-5521", department: "Finance" },
    ],
  ];
  for (const [query, properties, expect] of cases) {
    const schema = { type: "object", properties, required: Object.keys(properties) };
    assert.deepEqual(fillArguments(query, schema).arguments, expect, query);
  }
});

test("an unquoted slug with a digit, or a user and secret, is the text a text parameter takes", () => {
  const text = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  assert.equal(fillArguments("md5 of invoice-batch-0425", text).arguments.text, "invoice-batch-0425");
  assert.equal(
    fillArguments("base64-encode svc-reporting:Tr4ck!ng", text).arguments.text,
    "svc-reporting:Tr4ck!ng",
  );
  // An identifier inside the credential is part of it.
  assert.equal(
    fillArguments("base64-encode api_user:Winter#2025 pls", text).arguments.text,
    "api_user:Winter#2025",
  );
  // A compound word, a count with its unit and a standard's name are no data.
  assert.equal(fillArguments("a full-time 20-character sha-256 check", text).arguments.text, undefined);
});
