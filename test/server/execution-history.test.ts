// Execution history per key, probed from outside on the real service over HTTP: another key's flood of calls
// does not erase a key's own recent executions; each key's history is bounded; a maintainer key sees every
// key's and filters by key, tool and status, each filter checked.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { keyId } from "../../src/server/index.ts";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

const MAINTAINER = "maint-history-1";
const ALICE = "agent-history-alice";
const BOB = "agent-history-bob";
/** The per-key bound the service documents (GET /v1/executions). */
const PER_KEY = 100;

let service: Service;

before(async () => {
  const catalog = await writeCatalog([
    {
      name: "echo_text",
      description: "Echo a text back unchanged.",
      annotations: { readOnlyHint: true },
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      // Generous: a cold sandbox on a loaded machine must not turn a call into a timeout.
      policy: { timeoutMs: 60_000 },
      binding: { type: "sandbox", code: "async function echo_text(args) { return { text: args.text }; }" },
    },
  ]);
  service = await startService({
    catalog,
    env: {
      SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
      SWITCHBOARD_AGENT_KEYS: `${ALICE},${BOB}`,
    },
  });
});

after(async () => {
  await service?.stop();
});

const executions = async (key: string, query = "") => {
  const answer = await call(service, "GET", `/v1/executions${query}`, { key });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.executions as { id: string; name: string; status: string }[];
};
const ids = (records: { id: string }[]) => records.map((r) => r.id);

async function execute(key: string, calls: object[]) {
  const answer = await call(service, "POST", "/v1/execute", { key, body: { calls } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.results as { status: string }[];
}

test("another key's flood of calls leaves a key's own history; each key's is bounded", async () => {
  await execute(
    ALICE,
    ["a-1", "a-2", "a-3"].map((id) => ({ id, name: "echo_text", arguments: { text: id } })),
  );
  // Refused by the tool's schema before it runs: failed, whatever the machine's speed.
  const [failed] = await execute(ALICE, [{ id: "a-fail", name: "echo_text", arguments: { text: 5 } }]);
  assert.equal(failed?.status, "failed");
  // Bob's flood: three batches of 64, more than the history a key keeps.
  for (let batch = 0; batch < 3; batch++)
    await execute(
      BOB,
      Array.from({ length: 64 }, (_, i) => ({
        id: `b-${batch}-${i}`,
        name: "echo_text",
        arguments: { text: "flood" },
      })),
    );

  const alices = ids(await executions(ALICE));
  for (const id of ["a-1", "a-2", "a-3", "a-fail"]) assert.ok(alices.includes(id), `Alice lost ${id}`);
  assert.ok(!alices.some((id) => id.startsWith("b-")), "Alice sees Bob's calls");

  const bobs = await executions(BOB, "?limit=1000");
  assert.equal(bobs.length, PER_KEY, "a key keeps its last 100 finished calls");
  assert.ok(bobs[0]?.id.startsWith("b-2-"), "newest first: the last batch's calls");
  assert.ok(!bobs.some((r) => r.id.startsWith("b-0-")), "the oldest went first");
  assert.ok(bobs.every((r) => r.id.startsWith("b-")));
});

test("a maintainer key sees every key's executions and filters them by key, tool and status", async () => {
  const alice = keyId("agent", ALICE);
  const bob = keyId("agent", BOB);
  const alices = await executions(MAINTAINER, `?key=${alice}`);
  assert.deepEqual(ids(alices).sort(), [`${alice}/a-1`, `${alice}/a-2`, `${alice}/a-3`, `${alice}/a-fail`]);
  const failed = await executions(MAINTAINER, `?key=${alice}&status=failed`);
  assert.deepEqual(ids(failed), [`${alice}/a-fail`]);
  const echoes = await executions(MAINTAINER, "?tool=echo_text&limit=1000");
  assert.equal(echoes.length, PER_KEY + 4);
  assert.deepEqual(await executions(MAINTAINER, "?tool=no_such_tool"), []);
  assert.equal((await executions(MAINTAINER, `?key=${bob}&limit=5`)).length, 5);
  assert.equal((await executions(MAINTAINER)).length, 100, "100 unless the limit says otherwise");
  const everyone = await executions(MAINTAINER, "?limit=1000");
  assert.equal(everyone.length, PER_KEY + 4);
  assert.ok(!JSON.stringify(everyone).includes(ALICE), "a key never appears, only its id");

  // Each filter is checked, and named when wrong.
  for (const [query, place] of [
    ["?status=done", "query.status"],
    ["?limit=0", "query.limit"],
    [`?key=${ALICE}`, "query.key"],
    ["?colour=red", "query"],
  ] as const) {
    const answer = await call(service, "GET", `/v1/executions${query}`, { key: MAINTAINER });
    assert.equal(answer.status, 400, `${query}: ${JSON.stringify(answer.body)}`);
    assert.ok(answer.body.error.message.includes(place), `${query}: ${answer.body.error.message}`);
  }
  // An agent key filters its own, and may not name another key.
  assert.deepEqual(ids(await executions(ALICE, "?status=failed")), ["a-fail"]);
  const other = await call(service, "GET", `/v1/executions?key=${bob}`, { key: ALICE });
  assert.equal(other.status, 403);
});
