// Session contexts in the memory store: stored as JSON copies, serialised per session, merged key by key
// into what is stored, bounded and expiring.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  contextBytes,
  memorySessionStore,
  SessionContexts,
  type SessionStore,
  SessionStoreUnavailableError,
} from "../../src/session/index.ts";

const store = () => memorySessionStore({ maxSessions: 100, maxTotalBytes: 100_000 });

test("a batch's changes reach the next batch of the same session, not another session", async () => {
  const sessions = new SessionContexts(store(), { maxContextBytes: 1000, ttlMs: 60_000 });
  await sessions.run("a", async (context) => {
    context.city = "Lisbon";
  });
  const seen: unknown[] = [];
  await sessions.run("a", async (context) => seen.push(context.city));
  await sessions.run("b", async (context) => seen.push(context.city));
  assert.deepEqual(seen, ["Lisbon", undefined]);
});

test("batches of one session run one after another, so the later sees the earlier's change", async () => {
  const sessions = new SessionContexts(store(), { maxContextBytes: 1000, ttlMs: 60_000 });
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
  const sessions = new SessionContexts(store(), { maxContextBytes: 1000, ttlMs: 60_000 });
  let kept: Record<string, unknown> = {};
  await sessions.run("c", async (context) => {
    context.list = [1];
    kept = context;
  });
  (kept.list as number[]).push(2);
  assert.deepEqual((await sessions.run("c", async (context) => context.list)).value, [1]);
});

test("an oversized context is not kept, and the run says why", async () => {
  const sessions = new SessionContexts(store(), { maxContextBytes: 50, ttlMs: 60_000 });
  await sessions.run("d", async (context) => {
    context.v = "small";
  });
  const run = await sessions.run("d", async (context) => {
    context.v = "x".repeat(100);
  });
  assert.match(run.warning ?? "", /108 bytes, over the bound of 50/);
  assert.equal((await sessions.run("d", async (context) => context.v)).value, "small");
});

test("a context expires after its time to live", async () => {
  const sessions = new SessionContexts(store(), { maxContextBytes: 1000, ttlMs: 30 });
  await sessions.run("e", async (context) => {
    context.v = 1;
  });
  await sleep(150);
  assert.equal((await sessions.run("e", async (context) => context.v)).value, undefined);
});

test("the store holds at most maxSessions sessions, dropping the least recently used", async () => {
  const small = memorySessionStore({ maxSessions: 2, maxTotalBytes: 100_000 });
  const bounds = { maxContextBytes: 1000, ttlMs: 60_000 };
  for (const id of ["1", "2", "3"]) await small.update(id, new Map([["v", id]]), bounds);
  assert.equal(await small.get("1"), undefined);
  assert.deepEqual(await small.get("3"), { v: 3 });
});

test("a change another holder of the store made during a batch is kept, not overwritten", async () => {
  // Two SessionContexts over one store stand for two replicas over one shared store.
  const shared = store();
  const bounds = { maxContextBytes: 1000, ttlMs: 60_000 };
  const a = new SessionContexts(shared, bounds);
  const b = new SessionContexts(shared, bounds);
  await a.run("s", async (context) => {
    context.gone = true;
    context.kept = "old";
  });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slow = a.run("s", async (context) => {
    await gate;
    context.city = "Porto";
    delete context.gone;
  });
  await b.run("s", async (context) => {
    context.lang = "pt";
  });
  release();
  await slow;
  assert.deepEqual((await a.run("s", async (context) => ({ ...context }))).value, {
    kept: "old",
    lang: "pt",
    city: "Porto",
  });
});

test("the bound counts UTF-8 bytes of the context's JSON", async () => {
  const fields: [string, string][] = [
    ["city", JSON.stringify("Zürich")],
    ["n", "1"],
  ];
  const text = JSON.stringify({ city: "Zürich", n: 1 });
  assert.equal(contextBytes(fields), Buffer.byteLength(text));
  assert.equal(contextBytes([]), 2);
  const exact = store();
  const bounds = { maxContextBytes: Buffer.byteLength(text), ttlMs: 60_000 };
  assert.deepEqual(await exact.update("x", new Map(fields), bounds), { kept: true });
  assert.deepEqual(await exact.update("x", new Map([["m", "2"]]), bounds), {
    kept: false,
    bytes: Buffer.byteLength(text) + 6,
  });
  assert.deepEqual(await exact.get("x"), { city: "Zürich", n: 1 });
});

test("changes a store that went away could not keep come back as a warning with the results", async () => {
  // A stand-in store that reads but cannot write, as a shared store lost between a batch's start and end.
  const failing: SessionStore = {
    async get() {
      return { city: "Lisbon" };
    },
    async update() {
      throw new SessionStoreUnavailableError("the session store (Redis) is unavailable: stand-in");
    },
  };
  const sessions = new SessionContexts(failing, { maxContextBytes: 1000, ttlMs: 60_000 });
  const run = await sessions.run("f", async (context) => {
    context.city = "Porto";
    return "ran";
  });
  assert.equal(run.value, "ran");
  assert.match(run.warning ?? "", /may not have been kept: the session store \(Redis\) is unavailable/);
});

test("the bounds hold per owner: one key's many sessions never evict another key's", async () => {
  const bounds = { maxContextBytes: 1_000, ttlMs: 60_000 };
  const small = memorySessionStore({ maxSessions: 3, maxTotalBytes: 100_000 });
  await small.update("agent#1/s", new Map([["user", '"bob"']]), bounds);
  for (let i = 0; i < 50; i++) await small.update(`agent#0/flood-${i}`, new Map([["x", "1"]]), bounds);
  assert.deepEqual(await small.get("agent#1/s"), { user: "bob" });
  assert.equal(await small.get("agent#0/flood-0"), undefined, "the flooding key drops its own oldest");
  assert.deepEqual(await small.get("agent#0/flood-49"), { x: 1 });
  const bySize = memorySessionStore({ maxSessions: 100, maxTotalBytes: 1_000 });
  await bySize.update("agent#1/s", new Map([["user", '"bob"']]), bounds);
  for (let i = 0; i < 20; i++)
    await bySize.update(`agent#0/big-${i}`, new Map([["v", JSON.stringify("x".repeat(400))]]), bounds);
  assert.deepEqual(await bySize.get("agent#1/s"), { user: "bob" });
});
