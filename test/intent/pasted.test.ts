// Data pasted after the request: after a colon that ends the instruction, or on the lines after one that
// points to it; a line break after words that do not point to data starts none.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const table = {
  type: "object",
  properties: { csv: { type: "string", description: "CSV text, first row the header" } },
  required: ["csv"],
};

test("lines after a line that points to them are the data", () => {
  const query = "The export uses semicolons. Can you turn this into JSON records?\n\nsku;qty\nA-100;4";
  assert.equal(fillArguments(query, table).arguments.csv, "sku;qty\nA-100;4");
});

test("a colon before the line break still starts the data", () => {
  assert.equal(fillArguments("rows to JSON: a,b\n1,2", table).arguments.csv, "a,b\n1,2");
});

test("a line break after words that name no data starts none", () => {
  assert.equal(fillArguments("Convert my rows to JSON.\nThanks a lot", table).arguments.csv, undefined);
});
