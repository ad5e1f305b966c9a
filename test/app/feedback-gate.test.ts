// The feedback gate's rules on a real FileStore: quorum of distinct agent keys, maintainers at once, no
// agent teaching of possibly destructive tools, votes kept across instances and bounded.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FeedbackGate,
  LEGACY_VOTES_KEY,
  MAX_PENDING_VOTES_PER_KEY,
  mayBeDestructive,
} from "../../src/app/feedback-gate.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { FileStore } from "../../src/store/index.ts";
import { tempDir } from "../server/harness.ts";

const tool = (name: string, annotations?: Tool["annotations"]) =>
  ({
    name,
    description: name,
    inputSchema: { type: "object" },
    ...(annotations ? { annotations } : {}),
  }) as Tool;
const TOOLS = new Map([
  ["lookup", tool("lookup", { readOnlyHint: true })],
  ["update", tool("update", { readOnlyHint: false, destructiveHint: false })],
  ["wipe", tool("wipe", { readOnlyHint: false, destructiveHint: true })],
  ["unmarked", tool("unmarked")],
]);
const getTool = (name: string) => TOOLS.get(name);
const agent = (n: number) => ({ role: "agent" as const, id: `agent#${n}` });

test("MCP's defaults decide what may be destructive: only read-only or destructiveHint false is safe", () => {
  assert.deepEqual(
    [...TOOLS.values()].map((t) => [t.name, mayBeDestructive(t)]),
    [
      ["lookup", false],
      ["update", false],
      ["wipe", true],
      ["unmarked", true],
    ],
  );
});

test("agent pairs wait for a quorum of distinct keys, kept across instances; repeats count once", async () => {
  const store = new FileStore(await tempDir("gate"));
  const pair = { query: "Find  the record", tool: "lookup" };
  const first = await new FeedbackGate(store, 3).vote([pair, pair], agent(0), getTool);
  assert.deepEqual(first, { learn: [], outcome: { recorded: 1, learned: 0, pending: 1, ignored: 0 } });
  await new FeedbackGate(store, 3).vote([pair], agent(0), getTool);
  await new FeedbackGate(store, 3).vote([{ query: "find the RECORD", tool: "lookup" }], agent(1), getTool);
  const third = await new FeedbackGate(store, 3).vote([pair], agent(2), getTool);
  assert.deepEqual(third.learn, [pair]);
  assert.deepEqual(third.outcome, { recorded: 1, learned: 1, pending: 0, ignored: 0 });
  assert.deepEqual(await store.list("feedback/pairs"), [], "a learned pair leaves no pending vote");
});

test("agent keys never teach a possibly destructive tool; a maintainer's pairs are learned at once", async () => {
  const store = new FileStore(await tempDir("gate"));
  const gate = new FeedbackGate(store, 1);
  const pairs = [
    { query: "a", tool: "wipe" },
    { query: "b", tool: "unmarked" },
    { query: "c", tool: "update" },
  ];
  const fromAgent = await gate.vote(pairs, agent(0), getTool);
  assert.deepEqual(fromAgent.learn, [{ query: "c", tool: "update" }]);
  assert.deepEqual(fromAgent.outcome, { recorded: 1, learned: 1, pending: 0, ignored: 2 });
  const fromMaintainer = await gate.vote(pairs, { role: "maintainer", id: "maintainer#0" }, getTool);
  assert.deepEqual(fromMaintainer.learn, pairs);
  assert.deepEqual(fromMaintainer.outcome, { recorded: 3, learned: 3, pending: 0, ignored: 0 });
});

test("pending votes are bounded per key, the key's oldest dropped first", async () => {
  const store = new FileStore(await tempDir("gate"));
  const gate = new FeedbackGate(store, 2);
  const pairs = Array.from({ length: MAX_PENDING_VOTES_PER_KEY + 5 }, (_, i) => ({
    query: `q${i}`,
    tool: "lookup",
  }));
  for (let i = 0; i < pairs.length; i += 100) await gate.vote(pairs.slice(i, i + 100), agent(0), getTool);
  // The five oldest were dropped: a second key's vote for one of them starts over instead of completing it.
  const dropped = await gate.vote([{ query: "q0", tool: "lookup" }], agent(1), getTool);
  assert.equal(dropped.outcome.pending, 1);
  // agent#1's own vote pushed none of agent#0's out: q5 is still waiting for its second key.
  const kept = await gate.vote([{ query: "q5", tool: "lookup" }], agent(1), getTool);
  assert.equal(kept.outcome.learned, 1);
});

test("votes of the single document earlier versions kept are moved, then counted, and the document removed", async () => {
  const store = new FileStore(await tempDir("gate"));
  await store.writeJson(LEGACY_VOTES_KEY, {
    version: 1,
    votes: [{ query: "find the record", tool: "lookup", voters: ["agent#0", "agent#1"] }],
  });
  assert.deepEqual(await new FeedbackGate(store, 3).pending(), [
    { query: "find the record", tool: "lookup", voters: ["agent#0", "agent#1"], needed: 3 },
  ]);
  const third = await new FeedbackGate(store, 3).vote(
    [{ query: "find the record", tool: "lookup" }],
    agent(2),
    getTool,
  );
  assert.deepEqual(third.outcome, { recorded: 1, learned: 1, pending: 0, ignored: 0 });
  assert.equal(await store.readBytes(LEGACY_VOTES_KEY), undefined);
});
