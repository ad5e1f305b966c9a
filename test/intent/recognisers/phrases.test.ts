// Noun phrases with their spans, the word that introduces each, the kind of name, and lists.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findPhrases } from "../../../src/intent/recognisers/phrases.ts";

const cases: {
  text: string;
  phrase: string;
  previous?: string;
  place?: boolean;
  person?: boolean;
  list?: string[];
}[] = [
  {
    text: "directions from San Francisco to Los Angeles",
    phrase: "San Francisco",
    previous: "from",
    place: true,
  },
  {
    text: "directions from San Francisco to Los Angeles",
    phrase: "Los Angeles",
    previous: "to",
    place: true,
  },
  { text: "the function of ATP synthase in mitochondria?", phrase: "ATP synthase", previous: "of" },
  { text: "the function of ATP synthase in mitochondria?", phrase: "mitochondria", previous: "in" },
  { text: "precipitation in the Amazon rainforest for a week", phrase: "Amazon rainforest", previous: "in" },
  { text: "the best album by Taylor Swift?", phrase: "Taylor Swift", previous: "by", person: true },
  // An initial's or a title's full stop does not end a name; a particle between capitalised words is in it.
  { text: "books written by Ursula K. Le Guin.", phrase: "Ursula K. Le Guin", previous: "by" },
  { text: "the cases of Mr. X in New York", phrase: "Mr. X", previous: "of" },
  { text: "the weather in St. Louis", phrase: "St. Louis", previous: "in" },
  { text: "stage 17 of the 2024 Tour de France", phrase: "Tour de France" },
  { text: "shares of Bank of America", phrase: "Bank of America", previous: "of" },
  { text: "the population of Paris. Rome is next", phrase: "Paris", previous: "of" },
  {
    text: "weather in Paris, London and New York",
    phrase: "Paris",
    previous: "in",
    list: ["Paris", "London", "New York"],
  },
  { text: "how similar a human and a chimp are", phrase: "chimp", list: ["human", "chimp"] },
  { text: "the weight of Glucose (C6H12O6) in grams", phrase: "Glucose", previous: "of" },
  // A possessive ends the name; what it owns is a phrase of its own.
  { text: "What was Albert Einstein's contribution to physics?", phrase: "Albert Einstein", person: true },
  { text: "What was Albert Einstein's contribution to physics?", phrase: "contribution" },
  // A place written with the larger area it is in is one place; areas of one rank stay a list.
  {
    text: "mountains within 50km of Denver, Colorado.",
    phrase: "Denver, Colorado",
    previous: "of",
    place: true,
  },
  {
    text: "the distance between Boston, MA, and Washington, D.C. in miles",
    phrase: "Boston, MA",
    list: ["Boston, MA", "Washington, D.C."],
  },
  { text: "sculptures in Rome, Italy with marble", phrase: "Rome, Italy", previous: "in" },
  { text: "cheap flights to France, Italy and Spain", phrase: "France", list: ["France", "Italy", "Spain"] },
  {
    text: "laws in the states Texas, California and Ohio",
    phrase: "California",
    list: ["states Texas", "California", "Ohio"],
  },
  // A preposition compromise reads as a noun is no part of a name.
  { text: "lawsuits filed against Apple in Santa Clara County", phrase: "Apple", previous: "against" },
];

const cores: { text: string; phrase: string; core: string | undefined }[] = [
  { text: "Get me the next Eminem concert in New York", phrase: "next Eminem concert", core: "Eminem" },
  {
    text: "Find a used Gibson Les Paul guitar",
    phrase: "used Gibson Les Paul guitar",
    core: "Gibson Les Paul",
  },
  { text: "the price of Amazon stock for the last 3 days", phrase: "Amazon stock", core: "Amazon" },
  {
    text: "a record for case number CA123456 in San Diego",
    phrase: "case number CA123456",
    core: "CA123456",
  },
  { text: "directions from San Francisco to Los Angeles", phrase: "San Francisco", core: undefined },
  { text: "the function of ATP synthase in mitochondria?", phrase: "ATP synthase", core: "ATP" },
  { text: "the best plasma membrane stain", phrase: "best plasma membrane stain", core: undefined },
];

for (const c of cores)
  test(`the name inside "${c.phrase}" is ${JSON.stringify(c.core)}`, () => {
    const found = findPhrases(c.text).find((p) => p.text === c.phrase);
    assert.ok(found, JSON.stringify(findPhrases(c.text).map((p) => p.text)));
    assert.equal(found.core?.text, c.core);
    if (found.core) assert.equal(c.text.slice(found.core.start, found.core.end), c.core);
  });

for (const c of cases)
  test(`phrase "${c.phrase}" in ${JSON.stringify(c.text)}`, () => {
    const phrases = findPhrases(c.text);
    const found = phrases.find((p) => p.text === c.phrase);
    assert.ok(found, `found: ${phrases.map((p) => p.text).join(" | ")}`);
    assert.equal(c.text.slice(found.start, found.end), c.phrase);
    if (c.previous !== undefined) assert.equal(found.previous, c.previous);
    if (c.place !== undefined) assert.equal(found.place, c.place);
    if (c.person !== undefined) assert.equal(found.person, c.person);
    if (c.list) {
      assert.notEqual(found.list, undefined);
      assert.deepEqual(
        phrases.filter((p) => p.list === found.list).map((p) => p.text),
        c.list,
      );
    } else assert.equal(found.list, undefined);
  });

const none: string[] = ["Calculate 4 + 5", "what is it?", ""];
for (const text of none)
  test(`no phrase in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findPhrases(text).map((p) => p.text),
      [],
    );
  });

test("a long request is read in a bounded window", () => {
  const text = `Find ${"Paris and ".repeat(2000)}Rome`;
  const phrases = findPhrases(text);
  assert.ok(phrases.length > 0 && phrases.every((p) => p.end <= 2_000));
});
