// Subword similarity: character trigrams of a query against each candidate tool's own words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SubwordIndex, trigrams } from "../../src/router/subword.ts";

const scores = (index: SubwordIndex, query: string, docs: number[]) => {
  const out = new Map<number, number>();
  index.similarities(trigrams(query), docs, out);
  return docs.map((d) => out.get(d) as number);
};

test("trigrams pad each word, count repeats and skip stop words", () => {
  const grams = (text: string) => [...trigrams(text)].map((e) => [e >>> 8, e & 255]);
  assert.equal(grams("web").length, 3); // <we, web, eb>
  assert.deepEqual(grams("the web"), grams("web"));
  assert.deepEqual(
    grams("web web").map(([, count]) => count),
    [2, 2, 2],
  );
  assert.deepEqual(grams("Web"), grams("web"));
  assert.equal(grams("a").length, 0);
});

test("a misspelt or inflected word still matches; text sharing no trigram scores 0", () => {
  const index = new SubwordIndex();
  index.upsert(0, "Strology Tool. Povides strology services for you.");
  index.upsert(1, "Weather Tool. Get the forecast for any city.");
  index.upsert(2, "Zip Tool. Unzip archives.");
  const [astrology, weather, zip] = scores(index, "astrological predictions for my sign", [0, 1, 2]);
  // "forecast" shares "ast" with "astrological"; the misspelt tool shares "str", "tro", "rol", "olo", "log".
  assert.ok((astrology as number) > 3 * (weather as number), `astrology ${astrology}, weather ${weather}`);
  assert.equal(zip, 0);
  const [same] = scores(index, "Strology Tool. Povides strology services for you.", [0]);
  assert.ok(Math.abs((same as number) - 1) < 1e-6); // float32 weights
});

test("after upserts, replacements and removals the scores equal a freshly built index's", () => {
  const texts = [
    "send an email to a contact",
    "list calendar events for a day",
    "convert currencies at today's rates",
    "translate text between languages",
  ];
  const live = new SubwordIndex();
  texts.forEach((t, i) => {
    live.upsert(i, t);
  });
  const query = "email my translated calendar";
  scores(live, query, [0, 1, 2, 3]); // computes IDF, which the changes below must refresh
  live.upsert(1, "list calendar events for a week"); // replaced
  live.remove(2);
  live.upsert(7, "forward an email thread");
  const fresh = new SubwordIndex();
  fresh.upsert(0, texts[0] as string);
  fresh.upsert(1, "list calendar events for a week");
  fresh.upsert(3, texts[3] as string);
  fresh.upsert(7, "forward an email thread");
  assert.deepEqual(scores(live, query, [0, 1, 2, 3, 7]), scores(fresh, query, [0, 1, 2, 3, 7]));
  assert.equal(scores(live, query, [2])[0], 0);
});

test("replacing documents many times over keeps only their latest words", () => {
  // Each replacement leaves its old grams behind in the shared pool until it is compacted: 3,000 rounds of
  // ~50 grams each pass the first pool's 65,536 entries several times.
  const live = new SubwordIndex();
  const text = (doc: number, round: number) =>
    `tool ${doc} version ${round} lists invoices and refunds ${round * 7}`;
  for (let round = 0; round < 1000; round++)
    for (let doc = 0; doc < 3; doc++) live.upsert(doc, text(doc, round));
  const fresh = new SubwordIndex();
  for (let doc = 0; doc < 3; doc++) fresh.upsert(doc, text(doc, 999));
  const query = "refund invoices of version 999";
  assert.deepEqual(scores(live, query, [0, 1, 2]), scores(fresh, query, [0, 1, 2]));
  assert.ok((scores(live, query, [0])[0] as number) > 0.3);
});

test("a document added after a query still changes every gram's IDF", () => {
  const live = new SubwordIndex();
  live.upsert(0, "send an email");
  live.upsert(1, "read the calendar");
  const query = "email the calendar";
  scores(live, query, [0, 1]);
  live.upsert(2, "email digest"); // only an addition: no removal marks the IDF stale on the way
  const fresh = new SubwordIndex();
  fresh.upsert(0, "send an email");
  fresh.upsert(1, "read the calendar");
  fresh.upsert(2, "email digest");
  assert.deepEqual(scores(live, query, [0, 1, 2]), scores(fresh, query, [0, 1, 2]));
});
