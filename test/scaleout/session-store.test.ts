// The Redis session store on a real Redis: one context per session under a hashed key, concurrent changes
// from several connections (replicas) all kept, the same byte bound as the memory store, expiry through
// Redis's own time to live, and a clear error while Redis is away or stops answering.
import assert from "node:assert/strict";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { down, type Services, up } from "../../scripts/services.ts";
import {
  type ConnectOptions,
  connectRedis,
  RedisSessionStore,
  sessionRedisKey,
  startRedis,
} from "../../src/hot-state/index.ts";
import {
  contextBytes,
  memorySessionStore,
  SessionContexts,
  SessionStoreUnavailableError,
} from "../../src/session/index.ts";
import { skipWithoutServices, tempDir } from "./harness.ts";

const bounds = { maxContextBytes: 1000, ttlMs: 60_000 };
const set = (entries: Record<string, unknown>) =>
  new Map(Object.entries(entries).map(([key, value]) => [key, JSON.stringify(value)]));

describe("the Redis session store", { skip: skipWithoutServices() }, () => {
  let folder: string;
  let urls: Services;
  const clients: Redis[] = [];
  const connect = async (options: ConnectOptions = {}) => {
    const redis = connectRedis(urls.redisUrl, options);
    await startRedis(redis);
    clients.push(redis);
    return redis;
  };

  before(async () => {
    folder = await tempDir("session-services");
    urls = await up(folder, "redis");
  });
  after(async () => {
    for (const client of clients) client.disconnect();
    await down(folder);
    await rm(folder, { recursive: true, force: true });
  });

  test("a session's context round-trips as JSON, under a key the session id does not form", async () => {
    const redis = await connect();
    const store = new RedisSessionStore(redis);
    const value = { n: 1.000000000000001, list: [], nested: { empty: {} }, text: "Zürich ✓" };
    assert.deepEqual(await store.update("agent#0/trip:1", set(value), bounds), { kept: true });
    assert.deepEqual(await store.get("agent#0/trip:1"), value, "numbers and [] survive exactly");
    assert.equal(await store.get("agent#0/trip:2"), undefined);
    const keys = await redis.keys("switchboard:session:*");
    assert.deepEqual(keys, [sessionRedisKey("agent#0/trip:1")]);
    assert.match(keys[0] as string, /^switchboard:session:[0-9a-f]{64}$/);
    await store.update("agent#0/trip:1", new Map(Object.keys(value).map((key) => [key, undefined])), bounds);
    assert.equal(await store.get("agent#0/trip:1"), undefined);
    assert.deepEqual(await redis.keys("switchboard:session:*"), [], "an emptied context leaves no key");
  });

  test("batches of one session through two connections lose no change", async () => {
    // Two SessionContexts on two connections stand for two replicas: each batch reads the context, lets
    // the other replica's batches run, then sets its own key.
    const replicas = [
      new SessionContexts(new RedisSessionStore(await connect()), bounds),
      new SessionContexts(new RedisSessionStore(await connect()), bounds),
    ];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        replicas[i % 2]?.run("race", async (context) => {
          await sleep(5);
          context[`k${i}`] = i;
        }),
      ),
    );
    const context = await new RedisSessionStore(await connect()).get("race");
    assert.equal(Object.keys(context ?? {}).length, 40);
  });

  test("the bound is the memory store's, in bytes, and an oversized change keeps the old context", async () => {
    const store = new RedisSessionStore(await connect());
    const memory = memorySessionStore({ maxSessions: 10, maxTotalBytes: 100_000 });
    const small = { city: "Zürich", n: 1 };
    const exact = { maxContextBytes: Buffer.byteLength(JSON.stringify(small)), ttlMs: 60_000 };
    for (const each of [store, memory]) {
      assert.deepEqual(await each.update("bound", set(small), exact), { kept: true });
      assert.deepEqual(await each.update("bound", set({ more: "é" }), exact), {
        kept: false,
        bytes: contextBytes([...set({ ...small, more: "é" })] as [string, string][]),
      });
      assert.deepEqual(await each.get("bound"), small);
    }
  });

  test("a context expires by Redis's time to live, renewed by each change", async () => {
    const redis = await connect();
    const store = new RedisSessionStore(redis);
    const short = { maxContextBytes: 1000, ttlMs: 400 };
    await store.update("short", set({ v: 1 }), short);
    const ttl = await redis.pttl(sessionRedisKey("short"));
    assert.ok(ttl > 0 && ttl <= 400, `PTTL ${ttl}`);
    await store.update("short", set({ v: 2 }), { ...short, ttlMs: 60_000 });
    assert.ok((await redis.pttl(sessionRedisKey("short"))) > 400, "renewed");
    await store.update("short", set({ v: 3 }), short);
    await sleep(600);
    assert.equal(await store.get("short"), undefined);
  });

  test("while Redis is away reads and writes throw SessionStoreUnavailableError", async () => {
    const redis = await connect();
    const store = new RedisSessionStore(redis);
    await down(folder, "redis");
    try {
      await assert.rejects(store.get("away"), SessionStoreUnavailableError);
      await assert.rejects(store.update("away", set({ v: 1 }), bounds), SessionStoreUnavailableError);
      const sessions = new SessionContexts(store, bounds);
      let ran = false;
      await assert.rejects(
        sessions.run("away", async () => {
          ran = true;
        }),
        /session store \(Redis\) is unavailable/,
      );
      assert.equal(ran, false, "a batch whose context cannot be read does not run");
    } finally {
      await up(folder, "redis");
    }
    for (let i = 0; i < 100 && redis.status !== "ready"; i++) await sleep(50);
    assert.deepEqual(await store.update("away", set({ v: 1 }), bounds), { kept: true });
  });

  test("a Redis that stops answering is a SessionStoreUnavailableError after the command timeout", async () => {
    const store = new RedisSessionStore(await connect({ commandTimeoutMs: 300 }));
    await store.update("hung", set({ v: 1 }), bounds);
    const pid = Number((await readFile(join(folder, "redis", "redis.pid"), "utf8")).trim());
    // SIGSTOP keeps the socket open and unanswered, as a Redis stalled or cut off without a reset.
    process.kill(pid, "SIGSTOP");
    try {
      await assert.rejects(store.get("hung"), (error: Error) => {
        assert.ok(error instanceof SessionStoreUnavailableError);
        assert.match(error.message, /timed out/);
        return true;
      });
    } finally {
      process.kill(pid, "SIGCONT");
    }
    assert.deepEqual(await store.get("hung"), { v: 1 });
  });
});
