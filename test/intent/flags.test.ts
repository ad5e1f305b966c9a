// Booleans named in the request, table-driven on made-up schemas: the name's verb may inflect, a long
// single word may too, an article may come between the words, and "without" sets a flag false.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";

const flag = (name: string) => ({ type: "object", properties: { [name]: { type: "boolean" } } });

const cases: [query: string, name: string, value: boolean | undefined][] = [
  ["the forecast in Oslo including the precipitation", "include_precipitation", true],
  ["find the statue, with a detailed description", "detail", true],
  ["fit the model; also apply standardization", "standardize", true],
  ["a password without symbols", "include_symbols", undefined],
  ["a password without symbols", "symbols", false],
  ["a report that includes its chart", "include_charts", true],
  ["the forecast in Oslo", "include_precipitation", undefined],
  // A negation a verb or two before the flag's words, in the same clause.
  ["find docket 123456 in Texas. Don't return full text", "full_text", false],
  ["do not include the chart", "include_chart", false],
  ["skip the detailed description", "detail", false],
  ["no, show it with full text", "full_text", true],
  // A verb's particle may follow its object.
  ["leave 22% and round the total up to a whole number", "round_up_total", true],
  ["round up the total", "round_up_total", true],
  ["the total, rounded", "round_up_total", undefined],
  // Switched off after the name, or before it.
  ["queue us for ranked. Turn crossplay off", "crossplay", false],
  ["disable the cache for this run", "cache", false],
  ["crossplay on please", "crossplay", true],
];

for (const [query, name, value] of cases)
  test(`${name} from ${JSON.stringify(query)}: ${value}`, () => {
    assert.equal(fillArguments(query, flag(name)).arguments[name], value);
  });
