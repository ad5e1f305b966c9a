// Where session contexts live. A tiny get/set-with-TTL interface, so the in-memory store here can be
// swapped for a shared one (Redis: GET, and SET with PX) when several service instances serve one session.
import { LRUCache } from "lru-cache";

/** A session's context as stored: JSON text, so every reader gets its own copy and its size is known. */
export interface SessionStore {
  get(id: string): Promise<string | undefined>;
  /** Stores the context; it expires `ttlMs` after this write unless written again. */
  set(id: string, context: string, ttlMs: number): Promise<void>;
}

export interface MemoryStoreOptions {
  /** Sessions kept at most; the least recently used goes first. */
  maxSessions: number;
  /** Characters of JSON kept over all sessions. */
  maxTotalChars: number;
}

export function memorySessionStore(options: MemoryStoreOptions): SessionStore {
  const cache = new LRUCache<string, string>({
    max: options.maxSessions,
    maxSize: options.maxTotalChars,
    sizeCalculation: (value, key) => Math.max(1, value.length + key.length),
    ttlAutopurge: false,
  });
  return {
    async get(id) {
      return cache.get(id);
    },
    async set(id, context, ttlMs) {
      cache.set(id, context, { ttl: ttlMs });
    },
  };
}
