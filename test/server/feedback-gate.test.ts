// Learning from use cannot be steered by one agent key (issue 14, findings 2 and 11), on the real service
// with the bundled accounts catalog: its delete_account is destructive, get_customer_profile read-only.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { scaled } from "../load-factor.ts";
import { call, ROOT, type Service, startService } from "./harness.ts";

const AGENTS = ["agent-key-a", "agent-key-b", "agent-key-c"];
const MAINTAINER = "maintainer-key";
const CATALOG = join(ROOT, "catalog", "accounts.yaml");
const ENV = { SWITCHBOARD_AGENT_KEYS: AGENTS.join(","), SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER };
let service: Service;

before(async () => {
  service = await startService({ catalog: CATALOG, env: ENV });
});

after(async () => {
  await service?.stop();
});

/** Every tool's score for a query, so a change anywhere in the ranking shows. */
const scores = async (query: string): Promise<Record<string, number>> => {
  const answer = await call(service, "POST", "/v1/route", { key: AGENTS[0], body: { query, topK: 50 } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return Object.fromEntries(answer.body.tools.map((t: { name: string; score: number }) => [t.name, t.score]));
};

const feedback = (key: string, pairs: { query: string; tool: string }[]) =>
  call(service, "POST", "/v1/feedback", { key, body: { pairs } });

// The probe, in the wordings an attacker would vary; the paraphrase is none of them.
const FORMS = [
  "show me the profile of customer c_N",
  "show the customer profile for c_N",
  "profile of customer c_N",
  "show me customer c_N's profile",
  "display the profile of customer c_N",
];
const attack = Array.from({ length: 15 }, (_, i) => ({
  query: (FORMS[i % FORMS.length] as string).replace("N", String(i + 1)),
  tool: "delete_account",
}));
const PARAPHRASE = "display the profile of customer c_3";

test("15 pairs from one agent key (\u2192 delete_account) change nothing a fresh paraphrase gets", async () => {
  const before = await scores(PARAPHRASE);
  assert.equal(Object.keys(before)[0], "get_customer_profile");
  const answer = await feedback(AGENTS[0] as string, attack);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(answer.body, { recorded: 0, learned: 0, pending: 0, ignored: 15 });
  // Every agent key together cannot teach a destructive tool either.
  for (const key of AGENTS.slice(1)) assert.equal((await feedback(key, attack)).body.ignored, 15);
  assert.deepEqual(await scores(PARAPHRASE), before);
});

test("an agent key's pair for a safe tool waits for three distinct keys (across a restart); repeats count once", async () => {
  const pairs = [{ query: "who is the customer c_5 exactly", tool: "get_customer_profile" }];
  const first = await feedback(AGENTS[0] as string, pairs);
  assert.deepEqual(first.body, { recorded: 1, learned: 0, pending: 1, ignored: 0 });
  assert.equal((await feedback(AGENTS[0] as string, pairs)).body.pending, 1);
  assert.equal((await feedback(AGENTS[1] as string, pairs)).body.pending, 1);
  // Pending votes live in the data folder: a restart keeps them.
  await service.stop();
  service = await startService({ catalog: CATALOG, env: ENV, data: service.data });
  assert.deepEqual((await feedback(AGENTS[2] as string, pairs)).body, {
    recorded: 1,
    learned: 1,
    pending: 0,
    ignored: 0,
  });
});

test("the same pairs from a maintainer key are learned at once and lift delete_account for the paraphrase", async () => {
  // The control: the paraphrase is sensitive to these pairs, so the first test's unchanged scores are the
  // gate's doing.
  const before = await scores(PARAPHRASE);
  const answer = await feedback(MAINTAINER, attack);
  assert.deepEqual(answer.body, { recorded: 15, learned: 15, pending: 0, ignored: 0 });
  const after = await scores(PARAPHRASE);
  assert.ok(
    (after.delete_account ?? 0) - (before.delete_account ?? 0) > 0.1,
    `delete_account ${before.delete_account} -> ${after.delete_account}`,
  );
});

test("a request carries at most 100 pairs: 1,000 get 400 naming the limit, and nothing is recorded", async () => {
  const pairs = Array.from({ length: 1000 }, (_, i) => ({
    query: `look up customer c_${i}`,
    tool: "find_customer",
  }));
  const started = Date.now();
  const answer = await feedback(MAINTAINER, pairs);
  assert.equal(answer.status, 400);
  assert.equal(answer.body.error.code, "invalid_request");
  assert.match(answer.body.error.message, /body\.pairs: at most 100 pairs per request/);
  // Refused by the schema before any embedding: far under the 53 s the issue measured.
  assert.ok(Date.now() - started < scaled(10_000), `took ${Date.now() - started} ms`);
  const hundred = await feedback(MAINTAINER, pairs.slice(0, 100));
  assert.deepEqual(hundred.body, { recorded: 100, learned: 100, pending: 0, ignored: 0 });
});
