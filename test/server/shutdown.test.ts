// Issue 14, finding 10: on SIGTERM every accepted request gets an HTTP answer. Calls queued behind a busy
// write tool (concurrency 1) when the drain deadline passes are answered 503 shutting_down, the busy one
// too, and none sees its connection reset.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, type Service, type StandIn, startService, startStandIn, writeCatalog } from "./harness.ts";

const BUSY_MS = 14_000; // beyond the 10 s drain deadline, and short enough for the stand-in to end soon after
let service: Service;
let standIn: StandIn;

before(async () => {
  standIn = await startStandIn();
  const catalog = await writeCatalog([
    {
      name: "archive_write",
      description: "Write a record to the slow archive; one write at a time.",
      annotations: { readOnlyHint: false, destructiveHint: false },
      inputSchema: { type: "object", properties: { ms: { type: "integer" } }, required: ["ms"] },
      binding: { type: "http", method: "POST", url: `${standIn.url}/slow`, query: { ms: "{ms}" } },
      policy: { timeoutMs: 60_000, concurrency: { limit: 1 } },
    },
  ]);
  service = await startService({ catalog });
});

after(async () => {
  await service?.stop();
  await standIn?.close();
});

test("SIGTERM with calls queued behind a busy write tool: every request gets 503 shutting_down, none a reset", async () => {
  const execute = (id: string, ms: number) =>
    call(service, "POST", "/v1/execute", {
      body: { calls: [{ id, name: "archive_write", arguments: { ms } }] },
    });
  const busy = execute("busy", BUSY_MS);
  await standIn.slowArrived(BUSY_MS);
  const queued = Array.from({ length: 4 }, (_, i) => execute(`queued-${i}`, 1));
  // The queued requests must be accepted before the signal; nothing observable marks a queued call.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exit = service.stop();
  const answers = await Promise.allSettled([busy, ...queued]);
  for (const answer of answers) {
    assert.equal(
      answer.status,
      "fulfilled",
      `a request got no answer: ${String((answer as PromiseRejectedResult).reason)}`,
    );
    const { value } = answer as PromiseFulfilledResult<Awaited<typeof busy>>;
    assert.equal(value.status, 503, JSON.stringify(value.body));
    assert.equal(value.body.error.code, "shutting_down");
  }
  assert.equal(await exit, 0);
});
