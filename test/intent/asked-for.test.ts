// What a request asks for, and whether a tool's words name it, table-driven.
import assert from "node:assert/strict";
import { test } from "node:test";
import { askedForWords, namesAskedFor } from "../../src/intent/index.ts";

const asked: [string, string[]][] = [
  ["What is the acceleration a ball will reach?", ["acceleration"]],
  ["Calculate the compounded interest for a principal of $100", ["compounded", "interest"]],
  ["what's the profit margin of a company", ["profit", "margin"]],
  ["How many championships did Michael Jordan win?", ["championships"]],
  ["Find all the roots of x^2 - 4", ["roots"]],
  ["What is the rate of return for a business with $15000 revenue", ["rate", "return"]],
  ["Calculate the probability of rain in Paris", ["probability", "rain"]],
  ["Get the latest value for AAPL", []],
  ["convert 10 USD to EUR", []],
  ["", []],
];
for (const [query, words] of asked)
  test(`asked for in ${JSON.stringify(query)}: ${words.join(", ") || "nothing"}`, () => {
    assert.deepEqual(askedForWords(query), words);
  });

const named: [string, string, boolean][] = [
  ["What is the acceleration of a thrown ball?", "maximum_height: the height a thrown object reaches", false],
  ["What is the external rate of return of these flows?", "irr: the internal rate of return", false],
  ["Calculate the compounded interest on $100", "compound_interest: interest on a principal", true],
  ["Find the roots of a quadratic", "solveQuadratic: finds the roots", true],
  ["convert 10 USD to EUR", "anything at all", true],
  ["What is the rate of return on $15000?", "net_profit: revenue minus cost, tax_rate", false],
  ["What is the rate of return on $15000?", "roi: the rate of return of an investment", true],
];
for (const [query, tool, expected] of named)
  test(`"${tool}" ${expected ? "names" : "does not name"} what ${JSON.stringify(query)} asks for`, () => {
    assert.equal(namesAskedFor(askedForWords(query), tool), expected);
  });
