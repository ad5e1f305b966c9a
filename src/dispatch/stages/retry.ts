// Stage: retries of a read-only or idempotent tool (or a write tool whose call carries its idempotency
// key), for the retryable classes, on the schedule of backoff.ts, within the retry budget and the call's
// deadline. Each retry runs the stages after this one again (the breaker among them, so a retry into an
// open circuit fails fast). Nothing is built for a call that succeeds at once.
import type { ErrorRules } from "../../catalog/index.ts";
import type { Call } from "../call.ts";
import type { RetryNotice } from "../events.ts";
import type { KeyBudgets } from "../key-budgets.ts";
import { type EffectivePolicy, mayRetry } from "../options.ts";
import { Pending } from "../pending.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";
import { retryAfterFailure, type Sleep } from "../retry.ts";
import type { RetryBudget } from "../retry-budget.ts";
import type { Provider } from "../types.ts";

export interface RetryDeps {
  /** Each caller's retry budget, beside the provider's. */
  keyBudgets: KeyBudgets;
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
    this.#next = undefined;
  }

  /**
   * The stages after this one. A stage is built for one place in one pipeline, so `next` is the same on
   * every call; it is kept so that the reaction to an attempt needs no closure per call.
   */
  #next: Next | undefined;

  execute(call: Call, next: Next): Pending {
    if (!mayRetry(this.#policy, call.args)) return next(call);
    this.#next = next;
    return next(call).after(this.#retryIfFailed);
  }

  readonly #retryIfFailed = (call: Call): Call | Pending =>
    call.outcome === "failed" ? Pending.from(this.#retry(call, this.#next as Next), call) : call;

  async #retry(call: Call, next: Next): Promise<Call> {
    const { sleep, random, retried } = this.#deps;
    // p-retry drives the attempts after the first; for it an attempt whose call failed throws the failure.
    const attempt = async () => {
      await proceed(next, call).promise();
      if (call.outcome === "failed") throw call.failure;
      return call;
    };
    try {
      return await retryAfterFailure(call.failure, attempt, {
        settings: this.#policy.retry,
        rules: this.#rules,
        provider: this.#provider,
        signal: call.signal,
        deadlineAt: call.deadlineAt,
        budget: this.#budget,
        keyBudget: this.#deps.keyBudgets.of(call.key),
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
    } catch (error) {
      return call.fail(error);
    }
  }
}
