// Requests a new user typed, over the real service's HTTP API with the bundled catalog and no LLM: each
// stated value is read and the right answer comes back, a tool whose purpose does not fit answers no_match
// (so synthesis could run), and what the request leaves open (the asker's own zone, which VAT reading) is
// asked for instead of answered silently wrong.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, type Service, startService } from "./harness.ts";

const KEY = "maintainer-new-user-1";
let service: Service;

before(async () => {
  service = await startService({ env: { SWITCHBOARD_MAINTAINER_KEYS: KEY } });
});
after(async () => {
  await service?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: the parsed answer, checked field by field
async function ask(query: string, args?: Record<string, unknown>): Promise<any> {
  const answer = await call(service, "POST", "/v1/route-and-execute", {
    key: KEY,
    body: { query, ...(args ? { arguments: args } : {}) },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

const completed: [
  query: string,
  tool: string,
  output: Record<string, unknown>,
  args?: Record<string, unknown>,
][] = [
  ["what is sqrt(144) + 3^2", "calculate", { result: 21 }],
  ["what is 12 × 4 ÷ 3", "calculate", { result: 16 }],
  ["what is 2 to the power of 10", "calculate", { result: 1024 }],
  ["what is 45 as a percentage of 180", "percentage", { result: 25 }],
  ["what percent of 180 is 45", "percentage", { result: 25 }, { operation: "what_percent" }],
  ["what date is one month after 2024-01-31", "date_add", { date: "2024-02-29" }],
  ["what time is it in Berlin", "current_time", { zone: "Europe/Berlin" }],
  ["find all the hashtags in 'Launch day! #buildinpublic #saas'", "regex_extract", { count: 2 }],
  [
    "pull the email addresses out of this footer: Sales sales@example.com, Support help@example.org",
    "regex_extract",
    { count: 2 },
  ],
  [
    "Pull out every ticket ID (they look like PAY-123) from my notes: 'closed PAY-101 and PAY-2045, then OPS-77'",
    "regex_extract",
    { count: 3 },
  ],
  ["convert 500 MB to MiB", "convert_units", { from: "mb", to: "mib" }],
  ["tip 15% on a 80 bill split among 4 people", "calculate_tip", { total: 92, per_person: 23 }],
  ["convert this CSV to JSON:\nname,age\nann,31\nbob,42", "csv_to_json", { row_count: 2 }],
  [
    "It exports with semicolons. Can you turn this into JSON records?\n\nsku;qty\nA-1;4",
    "csv_to_json",
    { row_count: 1 },
  ],
  ["Sanity check: (1250 - 380) * 0.15 + 42. what does that come to?", "calculate", { result: 172.5 }],
  [
    "The job runs '0 9 1,15 * *'. Next two runs after 2025-11-20 00:00 UTC?",
    "explain_cron",
    { next_runs_utc: ["2025-12-01T09:00Z", "2025-12-15T09:00Z"] },
  ],
];

for (const [query, tool, output, args] of completed)
  test(`stated values are read and run: ${JSON.stringify(query)}`, async () => {
    const body = await ask(query, args);
    assert.equal(body.status, "completed", JSON.stringify(body.missing ?? body.steps?.[0]));
    assert.equal(body.tool, tool);
    for (const [field, value] of Object.entries(output))
      assert.deepEqual(body.result.output[field], value, `${field} of ${JSON.stringify(body.result.output)}`);
    assert.equal(body.calls.length, 1, "one call ran, and it is in the answer");
  });

test("the zones and the date of a stated time are read: 3pm on 2024-07-01 in New York, in Tokyo", async () => {
  const body = await ask("what time is it in Tokyo when it is 3pm on 2024-07-01 in New York");
  assert.equal(body.status, "completed");
  assert.equal(body.result.output.from.zone, "America/New_York");
  assert.equal(body.result.output.from.local, "2024-07-01 15:00");
  assert.equal(body.result.output.to.zone, "Asia/Tokyo");
  assert.equal(body.result.output.to.local, "2024-07-02 04:00");
});

test("a time in the asker's own zone asks for that zone rather than reading it as UTC", async () => {
  for (const query of ["what is 3pm my time in London", "when it is 9am my time what time is it in Tokyo"]) {
    const body = await ask(query);
    assert.equal(body.status, "needs_input", `${query}: ${body.tool} ${JSON.stringify(body.result?.output)}`);
    assert.equal(body.tool, "convert_timezone");
    assert.deepEqual(
      body.missing.map((m: { field: string }) => m.field),
      ["from_zone"],
    );
    assert.equal(body.calls.length, 0);
  }
});

test("a tool whose purpose does not fit answers no_match, not a run on the quoted text", async () => {
  const body = await ask('mirror the letters of "drawer"');
  assert.equal(body.status, "no_match", `${body.tool} ${JSON.stringify(body.result?.output)}`);
  assert.equal(body.calls.length, 0);
});

test("a tool is not run on words alone that barely reach it", async () => {
  const body = await ask("generate a barcode for this product");
  assert.notEqual(body.status, "completed", JSON.stringify(body.steps?.[0]));
  assert.equal(body.calls.length, 0);
});

test("a request that calls a tool by its name makes the case its words alone would not", async () => {
  const body = await ask('slugify "Q3 Roadmap – Draft v2" for the wiki page');
  assert.equal(body.status, "completed", JSON.stringify(body));
  assert.equal(body.result?.output?.slug, "q3-roadmap-draft-v2");
});

test("VAT whose reading the request leaves open is asked about, never computed one way silently", async () => {
  const included = await ask("I paid 119 including 19% VAT, what was the net price");
  assert.notEqual(included.status, "completed", JSON.stringify(included.result?.output));
  // "add … to" says which way: a net price raised by the rate, or a question, never another reading.
  const added = await ask("add 20% VAT to 100");
  if (added.status === "completed") assert.equal(added.result?.output?.result, 120);
  else assert.equal(added.status, "needs_input");
});
