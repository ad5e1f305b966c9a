// Session contexts: stored as JSON copies, serialised per session, bounded and expiring.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { memorySessionStore, SessionContexts } from "../../src/session/index.ts";

const store = () => memorySessionStore({ maxSessions: 100, maxTotalChars: 100_000 });

test("a batch's changes reach the next batch of the same session, not another session", async () => {
  const sessions = new SessionContexts(store(), { maxContextChars: 1000, ttlMs: 60_000 });
  await sessions.run("a", async (context) => {
    context.city = "Lisbon";
  });
  const seen: unknown[] = [];
  await sessions.run("a", async (context) => seen.push(context.city));
  await sessions.run("b", async (context) => seen.push(context.city));
  assert.deepEqual(seen, ["Lisbon", undefined]);
});

test("batches of one session run one after another, so the later sees the earlier's change", async () => {
  const sessions = new SessionContexts(store(), { maxContextChars: 1000, ttlMs: 60_000 });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const first = sessions.run("s", async (context) => {
    await gate;
    context.step = 1;
  });
  const second = sessions.run("s", async (context) => context.step);
  release();
  await first;
  assert.equal((await second).value, 1);
});

test("a reader gets a copy: changing it outside a batch changes nothing stored", async () => {
  const sessions = new SessionContexts(store(), { maxContextChars: 1000, ttlMs: 60_000 });
  let kept: Record<string, unknown> = {};
  await sessions.run("c", async (context) => {
    context.list = [1];
    kept = context;
  });
  (kept.list as number[]).push(2);
  assert.deepEqual((await sessions.run("c", async (context) => context.list)).value, [1]);
});

test("an oversized context is not kept, and the run says why", async () => {
  const sessions = new SessionContexts(store(), { maxContextChars: 50, ttlMs: 60_000 });
  await sessions.run("d", async (context) => {
    context.v = "small";
  });
  const run = await sessions.run("d", async (context) => {
    context.v = "x".repeat(100);
  });
  assert.match(run.warning ?? "", /over the bound of 50/);
  assert.equal((await sessions.run("d", async (context) => context.v)).value, "small");
});

test("a context expires after its time to live", async () => {
  const sessions = new SessionContexts(store(), { maxContextChars: 1000, ttlMs: 30 });
  await sessions.run("e", async (context) => {
    context.v = 1;
  });
  await sleep(150);
  assert.equal((await sessions.run("e", async (context) => context.v)).value, undefined);
});

test("the store holds at most maxSessions sessions, dropping the least recently used", async () => {
  const small = memorySessionStore({ maxSessions: 2, maxTotalChars: 100_000 });
  await small.set("1", "{}", 60_000);
  await small.set("2", "{}", 60_000);
  await small.set("3", "{}", 60_000);
  assert.equal(await small.get("1"), undefined);
  assert.equal(await small.get("3"), "{}");
});
