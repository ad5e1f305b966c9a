// Where session contexts live: a get / update-with-TTL interface with this in-memory store, and a Redis
// store (src/hot-state) that the composition root hands out when replicas share one Redis. A batch's
// changes are applied by the store to the context as it is then, in one step, so a change another replica
// made to the same session meanwhile is kept; the store also enforces the size bound on the result.
import { LRUCache } from "lru-cache";

export type Context = Record<string, unknown>;

/** A batch's net changes: each key's new value as JSON text, or undefined when the key is removed. */
export type ContextChanges = ReadonlyMap<string, string | undefined>;

export interface ContextBounds {
  /** Bytes of UTF-8 JSON one session's context may hold. */
  maxContextBytes: number;
  /** How long a session's context lives after its last change. */
  ttlMs: number;
}

/** kept: false leaves the stored context as it was; `bytes` is what the changes would have made it. */
export type UpdateOutcome = { kept: true } | { kept: false; bytes: number };

export interface SessionStore {
  /** The session's context, a fresh copy each time; undefined when it has none (or it expired). */
  get(id: string): Promise<Context | undefined>;
  /** Applies `changes` to the stored context atomically, unless the result would outgrow the bound. */
  update(id: string, changes: ContextChanges, bounds: ContextBounds): Promise<UpdateOutcome>;
}

/** A shared store that cannot be reached: the caller is told, rather than given another replica's view. */
export class SessionStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionStoreUnavailableError";
  }
}

/**
 * The size of the context's JSON text `{"key":value,…}` in UTF-8 bytes, from its keys and values' JSON
 * texts. The Redis store's script computes the same sum, so both stores hold one bound.
 */
export function contextBytes(fields: Iterable<[string, string]>): number {
  let bytes = 2;
  let count = 0;
  for (const [key, value] of fields) {
    bytes += Buffer.byteLength(JSON.stringify(key)) + 1 + Buffer.byteLength(value);
    count++;
  }
  return count > 1 ? bytes + count - 1 : bytes;
}

export interface MemoryStoreOptions {
  /** Sessions kept at most per owner; the owner's least recently used goes first. */
  maxSessions: number;
  /** Bytes of JSON kept over all sessions of one owner. */
  maxTotalBytes: number;
}

/** A session id's owner: its part before the first "/" (the API key's id the server scopes ids with). */
function ownerOf(id: string): string {
  const slash = id.indexOf("/");
  return slash === -1 ? "" : id.slice(0, slash);
}

/**
 * Contexts of this process only: each is kept as key → JSON text of the value. Bounds hold per owner: with
 * one shared LRU, one key opening thousands of sessions (or a few large ones) evicted every other key's.
 * Owners are the configured keys, so the total stays bounded too.
 */
export function memorySessionStore(options: MemoryStoreOptions): SessionStore {
  const partitions = new Map<string, LRUCache<string, Map<string, string>>>();
  const partitionOf = (id: string) => {
    const owner = ownerOf(id);
    let cache = partitions.get(owner);
    if (!cache) {
      cache = new LRUCache<string, Map<string, string>>({
        max: options.maxSessions,
        maxSize: options.maxTotalBytes,
        sizeCalculation: (fields, id) => contextBytes(fields) + id.length,
        ttlAutopurge: false,
      });
      partitions.set(owner, cache);
    }
    return cache;
  };
  return {
    async get(id) {
      const fields = partitions.get(ownerOf(id))?.get(id);
      if (!fields) return undefined;
      // Object.fromEntries defines own properties: a "__proto__" key stays a key.
      return Object.fromEntries([...fields].map(([key, value]) => [key, JSON.parse(value)]));
    },
    // Synchronous from read to write, so no other update of this process comes between.
    async update(id, changes, bounds) {
      const cache = partitionOf(id);
      const fields = new Map(cache.get(id));
      for (const [key, value] of changes) {
        if (value === undefined) fields.delete(key);
        else fields.set(key, value);
      }
      const bytes = contextBytes(fields);
      if (bytes > bounds.maxContextBytes) return { kept: false, bytes };
      if (fields.size === 0) cache.delete(id);
      else cache.set(id, fields, { ttl: bounds.ttlMs });
      return { kept: true };
    },
  };
}
