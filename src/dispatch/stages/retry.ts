// Stage: retries of a read-only or idempotent tool (or a write tool whose call carries its idempotency
// key), for the retryable classes, on the schedule of backoff.ts, within the retry budget and the call's
// deadline. Each retry runs the stages after this one again (the breaker among them, so a retry into an
// open circuit fails fast). Nothing is built for a call that succeeds at once.
import type { ErrorRules } from "../../catalog/index.ts";
import type { Call } from "../call.ts";
import type { RetryNotice } from "../events.ts";
import { type EffectivePolicy, mayRetry } from "../options.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";
import { retryAfterFailure, type Sleep } from "../retry.ts";
import type { RetryBudget } from "../retry-budget.ts";
import type { Provider } from "../types.ts";

export interface RetryDeps {
  sleep: Sleep;
  random: () => number;
  retried: (notice: RetryNotice) => void;
}

export class Retry implements Stage {
  readonly #tool: string;
  readonly #policy: EffectivePolicy;
  readonly #provider: Provider;
  readonly #rules: ErrorRules | undefined;
  readonly #budget: RetryBudget;
  readonly #deps: RetryDeps;

  constructor(
    tool: string,
    policy: EffectivePolicy,
    provider: Provider,
    rules: ErrorRules | undefined,
    budget: RetryBudget,
    deps: RetryDeps,
  ) {
    this.#tool = tool;
    this.#policy = policy;
    this.#provider = provider;
    this.#rules = rules;
    this.#budget = budget;
    this.#deps = deps;
  }

  execute(call: Call, next: Next): Promise<unknown> {
    if (!mayRetry(this.#policy, call.args)) return next(call);
    return next(call).then(undefined, (error: unknown) => this.#retry(call, next, error));
  }

  #retry(call: Call, next: Next, error: unknown): Promise<unknown> {
    const { sleep, random, retried } = this.#deps;
    return retryAfterFailure(error, () => proceed(next, call), {
      settings: this.#policy.retry,
      rules: this.#rules,
      provider: this.#provider,
      signal: call.signal,
      deadlineAt: call.deadlineAt,
      budget: this.#budget,
      sleep,
      random,
      onRetry: ({ retry, failure, delayMs }) =>
        retried({
          callId: call.id,
          tool: this.#tool,
          provider: this.#provider.id,
          retry,
          class: failure.class as RetryNotice["class"],
          delayMs,
        }),
    });
  }
}
