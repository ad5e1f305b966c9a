// A retry budget per key (caller), beside the one per (tool, provider): a retry is made only when both
// have a token, so one key's failing calls spend its own budget and not the retries every other key's
// calls need from the same provider. The budgets live in an LRU: a key away long enough to be dropped
// comes back with a full budget, which is what the time floor would have given it anyway.
import { LRUCache } from "lru-cache";
import type { RetryBudgetSettings } from "./options.ts";
import { RetryBudget } from "./retry-budget.ts";

const KEYS_KEPT = 10_000;

export class KeyBudgets {
  readonly #settings: RetryBudgetSettings;
  readonly #budgets = new LRUCache<string, RetryBudget>({ max: KEYS_KEPT });
  /** The last key asked for and its budget: calls from one key in a row skip the LRU. */
  #lastKey: string | undefined;
  #last: RetryBudget | undefined;

  constructor(settings: RetryBudgetSettings) {
    this.#settings = settings;
  }

  of(key: string): RetryBudget {
    if (key === this.#lastKey && this.#last) return this.#last;
    let budget = this.#budgets.get(key);
    if (!budget) {
      budget = new RetryBudget(this.#settings);
      this.#budgets.set(key, budget);
    }
    this.#lastKey = key;
    this.#last = budget;
    return budget;
  }
}
