// A retry budget per (tool, provider), after Finagle's RetryBudget and the AWS SDKs' retry token bucket:
// every call to the provider adds `ratio` tokens, every retry takes one, and a time floor adds `perSecond`.
// While faults are occasional the bucket stays full and every retry the schedule wants is made; in a
// sustained outage it empties after `capacity` retries and from then on a call makes at most 1 + ratio
// requests on average, so retries cannot multiply the load on a provider that is down. Beyond the budget
// a call fails with its own error and the breaker decides. Hand-written: cockatiel and p-retry have no
// retry budget, and the bucket is a few lines.
import type { RetryBudgetSettings } from "./options.ts";

export class RetryBudget {
  readonly #ratio: number;
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #now: () => number;
  #tokens: number;
  #refilledAt: number;

  constructor(settings: RetryBudgetSettings, now: () => number = Date.now) {
    this.#ratio = settings.ratio;
    this.#capacity = settings.capacity;
    this.#perMs = settings.perSecond / 1000;
    this.#now = now;
    this.#tokens = settings.capacity;
    this.#refilledAt = now();
  }

  /** Tokens left, after the time floor is added. */
  get tokens(): number {
    this.#refill();
    return this.#tokens;
  }

  /** A call is about to go to the provider (its first attempt). */
  deposit(): void {
    const tokens = this.#tokens + this.#ratio;
    this.#tokens = Math.min(tokens, this.#capacity);
  }

  /** Takes a token for one retry; false when the budget is spent (then the retry is not made). */
  withdraw(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Gives back a token taken for a retry that was not made after all. */
  refund(): void {
    this.#tokens = Math.min(this.#tokens + 1, this.#capacity);
  }

  #refill(): void {
    if (this.#perMs === 0) return;
    const now = this.#now();
    const tokens = this.#tokens + (now - this.#refilledAt) * this.#perMs;
    this.#refilledAt = now;
    this.#tokens = Math.min(tokens, this.#capacity);
  }
}
