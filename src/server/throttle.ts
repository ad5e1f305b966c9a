// Failed keys are throttled per client address, so keys cannot be guessed at the request rate. Once an
// address has sent `limit` wrong keys in a window, every request from it that needs a key is refused until
// the window ends, valid keys included: answering a right guess during the block would keep the oracle open.
import { LRUCache } from "lru-cache";

export const FAILED_KEY_LIMIT = 10;
export const FAILED_KEY_WINDOW_MS = 60_000;
/** Addresses remembered at most: a flood of addresses evicts the oldest rather than growing memory. */
const MAX_ADDRESSES = 10_000;

interface Failures {
  count: number;
  until: number;
}

export class FailedKeyThrottle {
  readonly limit: number;
  readonly windowMs: number;
  readonly #failures: LRUCache<string, Failures>;

  constructor(limit = FAILED_KEY_LIMIT, windowMs = FAILED_KEY_WINDOW_MS) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#failures = new LRUCache({ max: MAX_ADDRESSES, ttl: windowMs, noUpdateTTL: true });
  }

  /** Milliseconds until this address may try keys again; 0 when it may now. */
  blockedFor(address: string, now = Date.now()): number {
    const entry = this.#failures.get(address);
    if (!entry || entry.count < this.limit) return 0;
    return Math.max(0, entry.until - now);
  }

  fail(address: string, now = Date.now()): void {
    const entry = this.#failures.get(address);
    if (entry && entry.until > now) entry.count++;
    else this.#failures.set(address, { count: 1, until: now + this.windowMs });
  }
}
