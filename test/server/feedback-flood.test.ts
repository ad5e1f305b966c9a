// A flood of agent votes, on the real service over HTTP: it pushes out only the flooding key's own votes,
// no request rewrites a document that holds every pending vote, and other keys' feedback and /healthz keep
// answering while it runs.
import assert from "node:assert/strict";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { MAX_PENDING_VOTES_PER_KEY } from "../../src/app/feedback-gate.ts";
import { call, ROOT, type Service, startService } from "./harness.ts";

const [FLOODER, B, C, D] = ["agent-key-flood", "agent-key-b", "agent-key-c", "agent-key-d"] as const;
const TOOL = "get_customer_profile"; // read-only in the bundled accounts catalog, so agents may teach it
// Far below what one document of every vote reaches in this flood (about 8 MB).
const MAX_DOCUMENT_BYTES = 256 * 1024;
// Only a safety net: an answer that takes longer than this is a hang, not slowness.
const SAFETY_MS = 30_000;
let service: Service;

before(async () => {
  service = await startService({
    catalog: join(ROOT, "catalog", "accounts.yaml"),
    env: { SWITCHBOARD_AGENT_KEYS: [FLOODER, B, C, D].join(",") },
  });
});

after(async () => {
  await service?.stop();
});

const feedback = async (key: string, pairs: { query: string; tool: string }[]) => {
  const answer = await call(service, "POST", "/v1/feedback", { key, body: { pairs } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as { recorded: number; learned: number; pending: number };
};

async function within<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer in ${SAFETY_MS} ms`)), SAFETY_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function filesUnder(folder: string): Promise<{ path: string; bytes: number }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => {
        const path = join(e.parentPath, e.name);
        return { path, bytes: (await stat(path)).size };
      }),
  );
}

test("a flood from one key pushes out only its own votes, and others' feedback and /healthz keep answering", async () => {
  const padding = " and more".repeat(430); // queries of about 3,900 characters, near the 4,000 limit
  const flood = Array.from({ length: MAX_PENDING_VOTES_PER_KEY + 100 }, (_, i) => ({
    query: `flood query ${i}${padding}`,
    tool: TOOL,
  }));
  const kept = { query: "who is the customer c_42 exactly", tool: TOOL };
  assert.equal((await feedback(B, [kept])).pending, 1);

  let flooding = true;
  const flooded = (async () => {
    for (let i = 0; i < flood.length; i += 100) await feedback(FLOODER, flood.slice(i, i + 100));
    flooding = false;
  })();
  // While the flood runs, another key's one-pair feedback and /healthz answer.
  let answeredDuringFlood = 0;
  for (let round = 0; round < 3; round++) {
    const health = await within("/healthz", call(service, "GET", "/healthz"));
    assert.equal(health.status, 200);
    const other = await within(
      "feedback",
      feedback(C, [{ query: `tell me about customer c_${round}`, tool: TOOL }]),
    );
    assert.equal(other.recorded, 1);
    if (flooding) answeredDuringFlood++;
  }
  await flooded;
  assert.ok(answeredDuringFlood > 0, "the probes ran while the flood was in flight");

  // The flooder's oldest votes are gone: two other keys no longer complete a quorum of three with it.
  const [oldest] = flood;
  assert.ok(oldest);
  await feedback(B, [oldest]);
  assert.deepEqual(await feedback(C, [oldest]), { recorded: 1, learned: 0, pending: 1, ignored: 0 });
  // Its newest is still counted.
  const newest = flood.at(-1);
  assert.ok(newest);
  await feedback(B, [newest]);
  assert.equal((await feedback(C, [newest])).learned, 1);
  // Another key's vote survived the flood: two more keys complete it.
  await feedback(C, [kept]);
  assert.equal((await feedback(D, [kept])).learned, 1);

  // No document holds every pending vote: each request reads and writes only small ones.
  const files = await filesUnder(join(service.data, "feedback"));
  assert.ok(files.length > 0, "votes are stored in the data folder");
  const largest = files.reduce((a, b) => (a.bytes >= b.bytes ? a : b));
  assert.ok(largest.bytes <= MAX_DOCUMENT_BYTES, `${largest.path} holds ${largest.bytes} bytes`);
});
