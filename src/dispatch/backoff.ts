// Retry delays. p-retry's own schedule (minTimeout·factor^n with a 1-2× random factor) cannot double for
// rate limits, honour Retry-After or jitter both ways, so the delay is computed here and p-retry only
// drives the attempts.
import type { Classified } from "./classify.ts";
import type { RetrySettings } from "./options.ts";

export interface BackoffState {
  /** The previous delay, for decorrelated jitter. */
  previousMs: number;
}

/**
 * Delay before retry number `retry` (1 for the first retry).
 * - proportional: min(max, base·2^(retry-1), doubled for rate limits) scaled by 1 ± jitter.
 * - decorrelated: min(max, uniform(base, 3·previous)), base doubled for rate limits (AWS's "decorrelated
 *   jitter": spreads a herd of retries without a fixed ladder).
 * A Retry-After header wins, capped at max; credentials are refreshed and retried without waiting.
 */
export function retryDelay(
  retry: number,
  failure: Classified,
  settings: RetrySettings,
  state: BackoffState,
  random: () => number,
): number {
  if (failure.class === "credentials") return 0;
  if (failure.retryAfterMs !== undefined) return Math.min(settings.maxMs, failure.retryAfterMs);
  const base = failure.class === "rate_limit" ? settings.baseMs * 2 : settings.baseMs;
  let delay: number;
  if (settings.strategy === "decorrelated") {
    const upper = Math.max(base, state.previousMs * 3);
    delay = Math.min(settings.maxMs, base + random() * (upper - base));
  } else {
    const exponential = Math.min(settings.maxMs, base * 2 ** (retry - 1));
    delay = Math.min(settings.maxMs, exponential * (1 - settings.jitter + 2 * settings.jitter * random()));
  }
  delay = Math.round(delay);
  state.previousMs = delay;
  return delay;
}
