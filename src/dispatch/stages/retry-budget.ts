// Stage: a call's first attempt at a provider adds to that provider's retry budget; the retry stage after
// it takes from the budget for each retry (retry-budget.ts says why).
import type { Call } from "../call.ts";
import type { Pending } from "../pending.ts";
import type { Next, Stage } from "../pipeline.ts";
import type { RetryBudget } from "../retry-budget.ts";

export class RetryBudgetDeposit implements Stage {
  readonly #budget: RetryBudget;

  constructor(budget: RetryBudget) {
    this.#budget = budget;
  }

  execute(call: Call, next: Next): Pending {
    this.#budget.deposit();
    return next(call);
  }
}
