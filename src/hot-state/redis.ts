// One ioredis connection per purpose, set to fail fast while Redis is away (no offline queue, one retry)
// and to reconnect by itself: every user of shared state has a local fallback (session contexts: a clear
// refusal) and must not wait.
import { createRequire } from "node:module";
import type { Redis } from "ioredis";

// ioredis is loaded by the first connection: a process without SWITCHBOARD_REDIS_URL never needs it, and
// loading it costs a noticeable part of a CLI command's start.
const require = createRequire(import.meta.url);

export interface ConnectOptions {
  /** A command without a reply by then fails, as on a Redis that stopped answering but kept its socket. */
  commandTimeoutMs?: number;
}

export function connectRedis(url: string, options: ConnectOptions = {}): Redis {
  const { Redis: Client } = require("ioredis") as typeof import("ioredis");
  const redis = new Client(url, {
    ...(options.commandTimeoutMs !== undefined ? { commandTimeout: options.commandTimeoutMs } : {}),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * times, 1000),
  });
  // Connection errors are seen through `status`; without a listener ioredis would print each one.
  redis.on("error", () => undefined);
  return redis;
}

/** Connects; a Redis that is down at start is not fatal, the client keeps trying in the background. */
export async function startRedis(redis: Redis): Promise<void> {
  await redis.connect().catch(() => undefined);
}
