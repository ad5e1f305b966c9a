// Sentences that state something, as context for the next one, and sentences that ask.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isStatement } from "../../../src/intent/recognisers/statements.ts";

const sentences: [sentence: string, states: boolean][] = [
  ["The receipt shows 59.80 total and that already includes 15% GST", true],
  ["dependabot wants to bump a lib from 0.4.7 to 0.5.0", true],
  ["Project kicks off 2026-01-15 and has to ship by 2026-04-30", true],
  ["prod started throwing 503s right after the deploy", true],
  ["Dinner came to $84.50", true],
  ["my password is hunter2", true],
  ["Also, the report was late", true],
  // Requests: an imperative before its object, a question, a request's opening words.
  ["Add an 18% tip and split it between 3 people", false],
  ["Slugify the title", false],
  ["Double it", false],
  ["Sort these numbers", false],
  ["Also compute the distance covered", false],
  ["and then convert it", false],
  ["convert 5 miles to km", false],
  ["is it a leap year?", false],
  ["please tell me the weather", false],
  // No verb at all: a request in a noun phrase.
  ["the weather in Paris", false],
  ["", false],
];

for (const [sentence, states] of sentences)
  test(`${states ? "states" : "asks"}: ${JSON.stringify(sentence)}`, () => {
    assert.equal(isStatement(sentence), states);
  });
