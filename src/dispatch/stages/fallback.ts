// Stage: the fallback chain. Each provider has its own pipeline (budget, retry, breaker, timeout,
// provider); they are tried in order until one answers. Input errors and cancellations end the chain, and
// a call that may not be retried moves on only when its provider certainly did not run it (breaker open,
// credentials refused), so a side effect never happens twice.
import type { ErrorRules } from "../../catalog/index.ts";
import type { Call } from "../call.ts";
import { classify } from "../classify.ts";
import type { FallbackNotice } from "../events.ts";
import { type EffectivePolicy, mayRetry } from "../options.ts";
import { Pending } from "../pending.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";
import type { ErrorClass } from "../types.ts";

export interface ProviderChain {
  id: string;
  run: Next;
}

export function mayFallBack(cls: ErrorClass, retryAllowed: boolean): boolean {
  if (cls === "fatal" || cls === "cancelled") return false;
  return retryAllowed || cls === "breaker_open" || cls === "credentials";
}

export class FallbackChain implements Stage {
  readonly #tool: string;
  readonly #chains: readonly ProviderChain[];
  readonly #policy: EffectivePolicy;
  readonly #rules: ErrorRules | undefined;
  readonly #fallback: (notice: FallbackNotice) => void;

  constructor(
    tool: string,
    chains: readonly ProviderChain[],
    policy: EffectivePolicy,
    rules: ErrorRules | undefined,
    fallback: (notice: FallbackNotice) => void,
  ) {
    this.#tool = tool;
    this.#chains = chains;
    this.#policy = policy;
    this.#rules = rules;
    this.#fallback = fallback;
  }

  /** The chain ends here: `next` is never called. */
  execute(call: Call, _next: Next): Pending {
    return Pending.from(this.#tryInOrder(call), call);
  }

  async #tryInOrder(call: Call): Promise<Call> {
    const retryAllowed = mayRetry(this.#policy, call.args);
    for (let index = 0; index < this.#chains.length; index++) {
      const chain = this.#chains[index] as ProviderChain;
      if (index > 0)
        this.#fallback({
          callId: call.id,
          tool: this.#tool,
          from: this.#chains[index - 1]?.id ?? "",
          to: chain.id,
          reason: classify(call.failure, this.#rules).class,
        });
      await proceed(chain.run, call).promise();
      if (call.outcome !== "failed") return call;
      if (!mayFallBack(classify(call.failure, this.#rules).class, retryAllowed)) break;
    }
    return call;
  }
}
