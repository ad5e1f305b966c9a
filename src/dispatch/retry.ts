// Retries driven by p-retry. p-retry's own delay is switched off (minTimeout 0) and the class-dependent
// delay from backoff.ts is slept in `shouldRetry`; only retryable classes are retried, credentials once
// after the provider's refresh hook. A retry is made only while the retry budget has a token for it and
// its wait ends before the call's deadline; a failure the provider blames on the caller is not retried.
// The budget is the provider's and the caller's key's: both must have a token.
import { performance } from "node:perf_hooks";
import pRetry from "p-retry";
import type { ErrorRules } from "../catalog/index.ts";
import { type BackoffState, retryDelay } from "./backoff.ts";
import { type Classified, classify, isRetryable } from "./classify.ts";
import type { RetrySettings } from "./options.ts";
import type { RetryBudget } from "./retry-budget.ts";
import type { Provider } from "./types.ts";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** A token from the caller's budget and one from the provider's, or neither. */
function withdrawBoth(scope: RetryScope): boolean {
  if (!scope.keyBudget.withdraw()) return false;
  if (scope.budget.withdraw()) return true;
  scope.keyBudget.refund();
  return false;
}

export interface RetryEvent {
  retry: number;
  failure: Classified;
  delayMs: number;
}

export interface RetryScope {
  settings: RetrySettings;
  rules: ErrorRules | undefined;
  provider: Provider;
  signal: AbortSignal | undefined;
  /** performance.now() by which the call must have its answer. */
  deadlineAt: number;
  budget: RetryBudget;
  /** The caller's own budget: a retry takes a token from both. */
  keyBudget: RetryBudget;
  sleep: Sleep;
  random: () => number;
  onRetry(event: RetryEvent): void;
}

/**
 * The attempts after a first one that failed with `first`. The first attempt runs outside p-retry (the
 * dispatcher awaits it directly): most calls succeed at once, and p-retry's set-up (option validation,
 * clock reads) would otherwise sit on every call's path. After a failure that may be retried, p-retry
 * drives the remaining attempts.
 */
export async function retryAfterFailure<T>(
  first: unknown,
  attempt: () => Promise<T>,
  scope: RetryScope,
): Promise<T> {
  const backoff: BackoffState = { previousMs: 0 };
  let refreshed = false;
  const shouldRetry = async (error: unknown, retry: number): Promise<boolean> => {
    const failure = classify(error, scope.rules);
    if (!isRetryable(failure.class) || scope.provider.blame?.(error) === "caller") return false;
    if (failure.class === "credentials") {
      if (refreshed || !scope.provider.refreshCredentials) return false;
      refreshed = true;
      try {
        await scope.provider.refreshCredentials();
      } catch {
        return false; // the call fails with the original 401, which says more than the refresh error
      }
    }
    const delayMs = retryDelay(retry, failure, scope.settings, backoff, scope.random);
    if (performance.now() + delayMs >= scope.deadlineAt || !withdrawBoth(scope)) return false;
    scope.onRetry({ retry, failure, delayMs });
    if (delayMs > 0) await scope.sleep(delayMs, scope.signal);
    return true;
  };
  if (!(await shouldRetry(first, 1))) throw first;
  return pRetry(attempt, {
    retries: scope.settings.retries - 1,
    minTimeout: 0,
    ...(scope.signal ? { signal: scope.signal } : {}),
    shouldRetry: ({ error, retriesConsumed }) => shouldRetry(error, retriesConsumed + 2),
  });
}
