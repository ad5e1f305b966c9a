// Idempotency keys for write calls: the call id is claimed in Redis before the call runs, and its result
// stored after, so a write retried through another replica (same call id) gets the first run's result
// instead of running again. Without Redis (one process) the dispatcher's own in-flight sharing by call id
// is all there is, so the local store lets every call run.
import type { Redis } from "ioredis";

export type Claim<R> = { kind: "run" } | { kind: "done"; result: R };

export interface IdempotencyStore<R> {
  /** "run": this replica runs the call (and then calls `finish`); "done": it ran elsewhere already. */
  claim(id: string, signal?: AbortSignal): Promise<Claim<R>>;
  finish(id: string, result: R): Promise<void>;
  /** The run failed before it had a result: let a retry run it again. */
  abandon(id: string): Promise<void>;
}

export class LocalIdempotencyStore<R> implements IdempotencyStore<R> {
  async claim(): Promise<Claim<R>> {
    return { kind: "run" };
  }
  async finish(): Promise<void> {}
  async abandon(): Promise<void> {}
}

const RUNNING = "running";
const PREFIX = "switchboard:call:";

export interface RedisIdempotencyOptions {
  /** How long a result is remembered for retries. */
  keepMs: number;
  /** How long a claim without a result holds before a retry may run the call (a replica died mid-call). */
  runningMs: number;
  pollMs: number;
}

export class RedisIdempotencyStore<R> implements IdempotencyStore<R> {
  readonly #redis: Redis;
  readonly #options: RedisIdempotencyOptions;

  constructor(redis: Redis, options: RedisIdempotencyOptions) {
    this.#redis = redis;
    this.#options = options;
  }

  async claim(id: string, signal?: AbortSignal): Promise<Claim<R>> {
    const key = PREFIX + id;
    for (;;) {
      let stored: string | null;
      try {
        const claimed = await this.#redis.set(key, RUNNING, "PX", this.#options.runningMs, "NX");
        if (claimed === "OK") return { kind: "run" };
        stored = await this.#redis.get(key);
      } catch {
        // Redis is away: the call runs here, as it would on a single replica.
        return { kind: "run" };
      }
      if (stored !== null && stored !== RUNNING) return { kind: "done", result: JSON.parse(stored) as R };
      // Running on another replica (or the claim just expired, and the next SET NX takes it).
      signal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, this.#options.pollMs));
    }
  }

  async finish(id: string, result: R): Promise<void> {
    await this.#redis
      .set(PREFIX + id, JSON.stringify(result), "PX", this.#options.keepMs)
      .catch(() => undefined);
  }

  async abandon(id: string): Promise<void> {
    await this.#redis.del(PREFIX + id).catch(() => undefined);
  }
}
