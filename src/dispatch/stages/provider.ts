// Stage: the provider itself, the end of the pipeline. Its answer passes the canonical normaliser and the
// tool's outputSchema (drift there is a `schema` failure of this provider, so the next one is tried) and is
// held to the tool's result budget; a context modifier's patch is kept for after the batch.
import { type SchemaCheck, schemaCheck, type Tool } from "../../catalog/index.ts";
import { applyBudget, fitsBudget } from "../budget.ts";
import type { AttemptSink, Call } from "../call.ts";
import { outputOf, patchOf } from "../context-modifiers.ts";
import { normaliseOutput } from "../normalise.ts";
import type { Pending } from "../pending.ts";
import type { Next, Stage } from "../pipeline.ts";
import type { TokenCounter } from "../tokens.ts";
import type { InvokeOptions, Provider } from "../types.ts";

/** The provider's answer as a promise; one that throws instead of rejecting is a rejection too. */
function invoke(provider: Provider, args: Record<string, unknown>, options: InvokeOptions): Promise<unknown> {
  try {
    return Promise.resolve(provider.invoke(args, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The provider's mapping for one call. Made here rather than in #accept, where a closure would make V8
 * allocate a context for what it captures on every answer, mapping or not.
 */
function mappingOf(provider: Provider, args: Record<string, unknown>): (output: unknown) => unknown {
  return (output) => provider.mapOutput?.(output, args);
}

/** An output over the budget, cut to it; the call is warned of what was left out. */
function truncated(call: Call, output: unknown, budget: number, count: TokenCounter): unknown {
  const budgeted = applyBudget(output, budget, count);
  if (budgeted.omittedTokens > 0)
    call.warn(`output truncated to the ${budget}-token budget, ~${budgeted.omittedTokens} tokens omitted`);
  return budgeted.output;
}

export class ProviderCall implements Stage {
  readonly #provider: Provider;
  readonly #tool: Tool;
  readonly #budgetTokens: number;
  readonly #count: () => TokenCounter;
  /** Compiled on first use; undefined until then, null when the tool has no outputSchema. */
  #outputCheck: SchemaCheck | null | undefined;

  constructor(provider: Provider, tool: Tool, budgetTokens: number, count: () => TokenCounter) {
    this.#provider = provider;
    this.#tool = tool;
    this.#budgetTokens = budgetTokens;
    this.#count = count;
    this.#outputCheck = undefined;
  }

  /** The end of the pipeline: `next` is never called. The timeout stage before it has set `call.attempt`. */
  execute(call: Call, _next: Next): Pending {
    const attempt = call.attempt as AttemptSink;
    call.attempts++;
    return attempt.race(invoke(this.#provider, call.args, attempt.options), this.#accept);
  }

  /** The provider's answer, checked and held to the budget; a throw here fails the attempt. */
  readonly #accept = (call: Call, raw: unknown): void => {
    const check = this.#outputCheck === undefined ? this.#compile() : this.#outputCheck;
    const provider = this.#provider;
    const map = provider.mapOutput ? mappingOf(provider, call.args) : undefined;
    // A patch only comes with a context modifier's wrapper: an answer without one is looked at once.
    const patch = patchOf(raw);
    const output = normaliseOutput(patch ? outputOf(raw) : raw, check ?? undefined, map);
    const count = this.#count();
    const budget = this.#budgetTokens;
    const fitted = fitsBudget(output, budget, count) ? output : truncated(call, output, budget, count);
    call.provider = provider.id;
    call.patch = patch;
    call.answer(fitted);
  };

  #compile(): SchemaCheck | null {
    this.#outputCheck = this.#tool.outputSchema ? schemaCheck(this.#tool.outputSchema) : null;
    return this.#outputCheck;
  }
}
