// Free-text values placed from the schema alone, on a catalog this test makes up: places by "from"/"to",
// people by "by", a parameter's own word beside a name, lists of names, and optional values left out.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments } from "../../src/intent/index.ts";
import { schema, str } from "./made-up-schemas.ts";

const plan_trip = schema(
  { origin_city: str("Where the trip starts"), destination_city: str("Where it ends"), notes: str("Notes") },
  ["origin_city", "destination_city"],
);
const find_songs = schema({ musician: str("Who performs"), genre: str("A genre of music") }, ["musician"]);
const gene_lookup = schema({ genotype: str("The genotype, e.g. Aa") }, ["genotype"]);
const compare = schema(
  { cities: { type: "array", items: { type: "string" }, description: "Cities to compare" } },
  ["cities"],
);
const concerts = schema({ artist: str("The performer"), city: str("Where") }, ["artist"]);
const records = schema({ case_number: str("Its identifier"), county: str("Where it was filed") }, [
  "case_number",
  "county",
]);
const contribution = schema({ scientist: str("Who"), field: str("A field of science") }, ["scientist"]);
const league_table = schema({ league: str("Which league") }, ["league"]);
const achievements = schema(
  {
    celebrity_name: str("Name of the celebrity"),
    sports: str("Type of sports the celebrity plays"),
  },
  ["celebrity_name"],
);
const ranking = schema({ player_name: str("Name of the player"), gender: str("Gender of the player") }, [
  "player_name",
]);
const translate = schema(
  {
    text: str("Text to translate"),
    source_language: str("Language of the text"),
    target_language: str("Language wanted"),
  },
  ["text", "target_language"],
);
const login = schema({ username: str("Account name"), password: str("Secret") }, ["username", "password"]);

const cases: {
  name: string;
  query: string;
  schema: Record<string, unknown>;
  expect: Record<string, unknown>;
}[] = [
  {
    name: "start and end by from/to, whatever their order in the schema",
    query: "Plan a trip to Rome from Lisbon",
    schema: plan_trip,
    expect: { origin_city: "Lisbon", destination_city: "Rome" },
  },
  {
    name: "from … to … in the order written",
    query: "Plan a trip from New York City to Washington D.C.",
    schema: plan_trip,
    expect: { origin_city: "New York City", destination_city: "Washington D.C." },
  },
  {
    name: "a person after 'by'; the optional genre is left out",
    query: "Find songs by Taylor Swift",
    schema: find_songs,
    expect: { musician: "Taylor Swift" },
  },
  {
    name: "the parameter's own word beside the value",
    query: "What is the frequency of the AA genotype here?",
    schema: gene_lookup,
    expect: { genotype: "AA" },
  },
  {
    name: "a list of names for a list parameter",
    query: "Compare the cost of living in Paris, London and New York",
    schema: compare,
    expect: { cities: ["Paris", "London", "New York"] },
  },
  {
    name: "a person's name without the common words around it",
    query: "When is the next Eminem concert?",
    schema: concerts,
    expect: { artist: "Eminem" },
  },
  {
    name: "the parameter's own words cut from both ends of an identifier",
    query: "Look up the record for case number CA123456 in San Diego",
    schema: records,
    expect: { case_number: "CA123456", county: "San Diego" },
  },
  {
    name: "a possessive ends the name",
    query: "What was Albert Einstein's contribution?",
    schema: contribution,
    expect: { scientist: "Albert Einstein" },
  },
  {
    name: "a capitalised own word is part of the name",
    query: "Show the table of the English Premier League",
    schema: league_table,
    expect: { league: "English Premier League" },
  },
  {
    name: "a kind the parameter's name says outweighs one only its description says",
    query: "Find the major achievements of the footballer Lionel Messi",
    schema: achievements,
    expect: { celebrity_name: "Lionel Messi" },
  },
  {
    name: "a word before a person's kind says what kind of person, not who",
    query: "Find the world rank of a Tennis player, Serena Williams",
    schema: ranking,
    expect: { player_name: "Serena Williams" },
  },
  {
    name: "a name after from or into goes to the source or the target, whatever its kind",
    query: 'Translate "Where is the pharmacy?" from English into Portuguese.',
    schema: translate,
    expect: { text: "Where is the pharmacy?", source_language: "English", target_language: "Portuguese" },
  },
  {
    name: "quoted values by the words before them, not by their order",
    query: "log in with password 'hunter2' and username 'alice'",
    schema: login,
    expect: { username: "alice", password: "hunter2" },
  },
];

for (const c of cases)
  test(c.name, () => {
    const filled = fillArguments(c.query, c.schema);
    assert.deepEqual(filled.arguments, c.expect);
    for (const v of filled.filled)
      if (v.span && typeof v.value === "string")
        assert.ok(v.span.text.includes(v.value), `${v.field}: "${v.value}" from "${v.span.text}"`);
  });

test("a required name nothing in the request gives is missing, never invented", () => {
  const filled = fillArguments("find some songs please", find_songs);
  assert.deepEqual(filled.arguments, {});
  assert.deepEqual(
    filled.missing.map((m) => m.field),
    ["musician"],
  );
});

test("several values for one single-valued parameter are asked about, not run as one call", () => {
  const weather = schema({ city: str("The city") }, ["city"]);
  const places = fillArguments("What is the weather in Paris and London?", weather);
  assert.deepEqual(
    places.missing.map((m) => [m.field, m.reason]),
    [["city", "the request names several values for it (Paris, London): one call each?"]],
  );
  const play = schema({ minutes: { type: "integer", description: "How long" } }, ["minutes"]);
  const numbers = fillArguments("play for 20 minutes and 15 minutes", play);
  assert.deepEqual(
    numbers.missing.map((m) => m.field),
    ["minutes"],
  );
});

test("several values are reported each with its span, dates and quoted texts too", () => {
  const cases: [query: string, schema: Record<string, unknown>, several: string[]][] = [
    [
      "What is the weather in Paris and London?",
      schema({ city: str("The city") }, ["city"]),
      ["Paris", "London"],
    ],
    [
      "closing prices on 2022-01-01 and 2022-02-01",
      schema({ date: { type: "string", format: "date", description: "The day" } }, ["date"]),
      ["2022-01-01", "2022-02-01"],
    ],
    ['reverse "abc" and "xyz"', schema({ text: str("The text") }, ["text"]), ["abc", "xyz"]],
    [
      "play for 20 minutes, 15 minutes or 5 minutes",
      schema({ minutes: { type: "integer" } }, ["minutes"]),
      ["20", "15", "5"],
    ],
  ];
  for (const [query, tool, several] of cases) {
    const [missing] = fillArguments(query, tool).missing;
    assert.deepEqual(
      missing?.several?.map((v) => v.text),
      several,
      query,
    );
    for (const v of missing?.several ?? []) assert.equal(query.slice(v.start, v.end), v.text, query);
  }
});

test("units of one kind listed after a conversion's target are several targets; other words are not", () => {
  const convert = schema({ value: { type: "number" }, from: str("Source unit"), to: str("Target unit") }, [
    "value",
    "from",
    "to",
  ]);
  const targets = (query: string) =>
    fillArguments(query, convert)
      .missing.find((m) => m.several)
      ?.several?.map((v) => v.text);
  assert.deepEqual(targets("convert 5 km to miles and feet"), ["miles", "feet"]);
  assert.deepEqual(targets("convert 100 USD to EUR, GBP and JPY"), ["EUR", "GBP", "JPY"]);
  assert.equal(targets("convert 5 km to miles and tell me more"), undefined);
  assert.equal(targets("convert 5 km to miles and kilograms"), undefined);
});

test("a person's full name fills a first-name and a last-name parameter", () => {
  const lead = {
    type: "object",
    properties: {
      first_name: { type: "string" },
      last_name: { type: "string" },
      company: { type: "string", description: "Company name" },
    },
    required: ["first_name", "last_name"],
  };
  assert.deepEqual(
    fillArguments("a guy named Tomás Reyes from Brightline Logistics, add him as a lead", lead).arguments,
    {
      first_name: "Tomás",
      last_name: "Reyes",
      company: "Brightline Logistics",
    },
  );
  // One name alone is no first and last name.
  assert.equal(fillArguments("add Cher as a lead", lead).arguments.last_name, undefined);
});
