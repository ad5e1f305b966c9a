// Stage: a call's first attempt at a provider adds to that provider's retry budget and to its caller's;
// the retry stage after it takes from both for each retry (retry-budget.ts and key-budgets.ts say why).
import type { Call } from "../call.ts";
import type { KeyBudgets } from "../key-budgets.ts";
import type { Pending } from "../pending.ts";
import type { Next, Stage } from "../pipeline.ts";
import type { RetryBudget } from "../retry-budget.ts";

export class RetryBudgetDeposit implements Stage {
  readonly #budget: RetryBudget;
  readonly #keys: KeyBudgets;

  constructor(budget: RetryBudget, keys: KeyBudgets) {
    this.#budget = budget;
    this.#keys = keys;
  }

  execute(call: Call, next: Next): Pending {
    this.#budget.deposit();
    this.#keys.of(call.key).deposit();
    return next(call);
  }
}
