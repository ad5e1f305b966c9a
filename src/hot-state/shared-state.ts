// The hot state replicas share through Redis (SWITCHBOARD_REDIS_URL), each part behind a small interface
// with a local default, so one process without Redis runs exactly as before and a replica whose Redis is
// away falls back to its own breakers and cache. Session contexts are the exception: they are the
// callers' data, not a speed-up, so while Redis is away a session's calls are refused (src/hot-state/
// sessions.ts) instead of each replica keeping a copy of its own.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { SessionStore } from "../session/index.ts";
import { type BreakerStateStore, LocalBreakerStateStore, RedisBreakerStateStore } from "./breakers.ts";
import { type AnswerLink, SharedAnswers } from "./cache.ts";
import { type IdempotencyStore, LocalIdempotencyStore, RedisIdempotencyStore } from "./idempotency.ts";
import { connectRedis, startRedis } from "./redis.ts";
import { RedisSessionStore } from "./sessions.ts";

/** off: not configured; up; down: configured but unreachable (running on local fallbacks). */
export type StoreHealth = "off" | "up" | "down";

export interface SharedState<R> {
  /** This process among the replicas, in announcements. */
  readonly replica: string;
  readonly breakers: BreakerStateStore;
  readonly idempotency: IdempotencyStore<R>;
  /** Session contexts shared by the replicas; undefined without Redis (each process keeps its own). */
  readonly sessions: SessionStore | undefined;
  /** Connects a dispatcher's result cache (its shareCache) to the other replicas'; nothing without Redis. */
  shareAnswers(share: (outgoing: AnswerLink) => AnswerLink): void;
  /** How long another replica's open breaker is held here without news from its opener. */
  readonly breakerHoldMs: number;
  redis(): StoreHealth;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  redisUrl?: string;
  /** Defaults: 60 s hold, results kept a day, a claim held 5 minutes. */
  breakerHoldMs?: number;
  keepResultsMs?: number;
  runningClaimMs?: number;
  /** How long a session context read or write may wait for Redis; 2 s by default. */
  sessionTimeoutMs?: number;
}

export async function openSharedState<R>(options: SharedStateOptions): Promise<SharedState<R>> {
  const replica = randomUUID();
  const breakerHoldMs = options.breakerHoldMs ?? 60_000;
  if (!options.redisUrl)
    return {
      replica,
      breakers: new LocalBreakerStateStore(),
      idempotency: new LocalIdempotencyStore<R>(),
      sessions: undefined,
      shareAnswers() {},
      breakerHoldMs,
      redis: () => "off",
      async close() {},
    };
  const redis: Redis = connectRedis(options.redisUrl);
  const subscriber = redis.duplicate();
  subscriber.on("error", () => undefined);
  const breakers = new RedisBreakerStateStore(redis, subscriber, replica, breakerHoldMs);
  const answers = new SharedAnswers(redis, subscriber, replica);
  // Its own connection with a command timeout: a session call waits for its context, so a Redis that
  // hangs must become a clear refusal, not a request that never ends.
  const sessions = connectRedis(options.redisUrl, {
    commandTimeoutMs: options.sessionTimeoutMs ?? 2000,
  });
  await Promise.all([startRedis(redis), startRedis(subscriber), startRedis(sessions)]);
  return {
    replica,
    breakers,
    idempotency: new RedisIdempotencyStore<R>(redis, {
      keepMs: options.keepResultsMs ?? 86_400_000,
      runningMs: options.runningClaimMs ?? 300_000,
      pollMs: 25,
    }),
    sessions: new RedisSessionStore(sessions),
    shareAnswers: (share) => answers.attach(share),
    breakerHoldMs,
    // Up only when session contexts can be reached too, so "up" means every shared part works again.
    redis: () => (redis.status === "ready" && sessions.status === "ready" ? "up" : "down"),
    async close() {
      await breakers.close();
      redis.disconnect();
      sessions.disconnect();
    },
  };
}
