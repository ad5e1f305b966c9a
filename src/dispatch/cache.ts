// Result cache for read-only tools: lru-cache bounds memory and drops entries past ttl + stale window;
// freshness is judged here from the time an answer was stored, so a stale answer can be served (with its
// age) while a refresh runs, or when every provider has failed.
import { LRUCache } from "lru-cache";
import { canonicalJson, type Tool } from "../catalog/index.ts";

interface Entry {
  output: unknown;
  provider: string;
  storedAt: number;
}

export interface CacheHit {
  output: unknown;
  provider: string;
  ageMs: number;
  fresh: boolean;
}

/** Where answers stored here are also sent: the other replicas' caches (src/hot-state), when there are any. */
export interface CacheLink {
  publish(key: string, output: unknown, provider: string, ttlMs: number, staleMs: number): void;
}

export class ResultCache {
  readonly #lru: LRUCache<string, Entry>;
  #link: CacheLink | undefined;
  readonly #now: () => number;
  readonly #refreshing = new Set<string>();

  constructor(maxEntries: number, now: () => number) {
    this.#now = now;
    this.#lru = new LRUCache({ max: maxEntries, ttl: 1, perf: { now } });
  }

  /** Tool name, version and canonical arguments: equal arguments in any key order share an entry. */
  key(tool: Tool, args: Record<string, unknown>): string {
    return `${tool.name}@${tool.version ?? 0}:${canonicalJson(args)}`;
  }

  get(key: string, ttlMs: number): CacheHit | undefined {
    const entry = this.#lru.get(key);
    if (!entry) return undefined;
    const ageMs = this.#now() - entry.storedAt;
    return { output: entry.output, provider: entry.provider, ageMs, fresh: ageMs < ttlMs };
  }

  set(key: string, output: unknown, provider: string, ttlMs: number, staleMs: number): void {
    if (ttlMs + staleMs <= 0) return;
    this.adopt(key, output, provider, ttlMs, staleMs);
    this.#link?.publish(key, output, provider, ttlMs, staleMs);
  }

  /** Stores an answer without sending it on: one another replica stored, aged from its arrival. */
  adopt(key: string, output: unknown, provider: string, ttlMs: number, staleMs: number): void {
    this.#lru.set(key, { output, provider, storedAt: this.#now() }, { ttl: ttlMs + staleMs });
  }

  link(link: CacheLink): void {
    this.#link = link;
  }

  /** Starts `refresh` unless one is already running for this key (stale-while-revalidate). */
  revalidate(key: string, refresh: () => Promise<void>): void {
    if (this.#refreshing.has(key)) return;
    this.#refreshing.add(key);
    // The refresh reports its own failures (as events); here it only has to end.
    refresh()
      .catch(() => undefined)
      .finally(() => this.#refreshing.delete(key));
  }
}
