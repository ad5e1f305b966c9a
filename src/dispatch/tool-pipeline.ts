// A tool's pipeline, built once per tool definition from its effective policy:
//
//   arguments → degraded? → cache? → key limit → fallback chain? → per provider:
//     retry budget? → retry? → slots → breaker → timeout → provider
//
// Stages a tool has no use for are left out (no cache stage without `policy.cache`, no retry stages for a
// tool that may never retry, no fallback stage for a single provider), so the pipeline is the fast path.
// The retry stage sits outside the slots and the breaker: each attempt takes slots and passes the
// breaker, so a call waiting for its next retry holds no slot, a circuit that opens stops a call's
// retries at once, and the breaker's statistic sees every attempt.
import type { Tool } from "../catalog/index.ts";
import type { BreakerRegistry } from "./breaker.ts";
import type { Semaphore } from "./bulkhead.ts";
import type { ResultCache } from "./cache.ts";
import type { Call } from "./call.ts";
import { DispatchError, type SchemaError } from "./errors.ts";
import type { FallbackNotice } from "./events.ts";
import type { KeyCalls } from "./key-calls.ts";
import type { DispatcherOptions, EffectivePolicy } from "./options.ts";
import { Pending } from "./pending.ts";
import { compose, type Next, type Stage } from "./pipeline.ts";
import { RetryBudget } from "./retry-budget.ts";
import { ArgumentCheck } from "./stages/arguments.ts";
import { Breaker } from "./stages/breaker.ts";
import { CachedAnswers } from "./stages/cache.ts";
import { DegradedOutput } from "./stages/degraded.ts";
import { FallbackChain, type ProviderChain } from "./stages/fallback.ts";
import { KeyLimit } from "./stages/key-limit.ts";
import { ProviderCall } from "./stages/provider.ts";
import { Retry, type RetryDeps } from "./stages/retry.ts";
import { RetryBudgetDeposit } from "./stages/retry-budget.ts";
import { Slots } from "./stages/slots.ts";
import { Timeout } from "./stages/timeout.ts";
import type { TokenCounter } from "./tokens.ts";
import type { Provider } from "./types.ts";

/** What the dispatcher shares with every pipeline it builds. */
export interface PipelineDeps extends RetryDeps {
  options: DispatcherOptions;
  breakers: BreakerRegistry;
  cache: ResultCache;
  global: Semaphore;
  keyCalls: KeyCalls;
  slotsFor(tool: string, limit: number): Semaphore;
  count(): TokenCounter;
  fallback(notice: FallbackNotice): void;
  badArguments(call: Call, error: SchemaError): void;
  queueTimedOut(call: Call, message: string): void;
  keyLimited(call: Call, message: string): void;
}

export interface ToolPipeline {
  policy: EffectivePolicy;
  providers: Provider[];
  run: Next;
}

const NO_PROVIDER: Stage = {
  execute: (call) => Pending.of(call.fail(new DispatchError("fatal", `tool "${call.name}" has no provider`))),
};

export function buildPipeline(
  tool: Tool,
  policy: EffectivePolicy,
  providers: Provider[],
  deps: PipelineDeps,
): ToolPipeline {
  const rules = tool.policy?.errors;
  const lastProvider = providers.at(-1)?.id ?? "none";
  const mayEverRetry = (policy.retryable || policy.idempotencyKey !== undefined) && policy.retry.retries > 0;
  const { queueTimeoutMs, deadlineMs } = deps.options;
  const slots = deps.slotsFor(tool.name, policy.concurrencyLimit);
  const chainOf = (provider: Provider): Stage[] => {
    const stages: Stage[] = [];
    if (mayEverRetry) {
      const budget = new RetryBudget(deps.options.retryBudget);
      stages.push(
        new RetryBudgetDeposit(budget, deps.keyBudgets),
        new Retry(tool.name, policy, provider, rules, budget, deps),
      );
    }
    const breaker = deps.breakers.get(tool.name, provider.id, policy.breaker);
    stages.push(
      new Slots(tool.name, slots, deps.global, { queueTimeoutMs, deadlineMs }, deps.queueTimedOut),
      new Breaker(breaker, provider, rules),
      new Timeout(policy.timeoutMs),
      new ProviderCall(provider, tool, policy.budgetTokens, deps.count),
    );
    return stages;
  };

  const stages: Stage[] = [new ArgumentCheck(tool, deps.badArguments)];
  if (tool.policy?.degraded !== undefined)
    stages.push(new DegradedOutput(tool, tool.policy.degraded, lastProvider, deps.fallback));
  if (policy.cache)
    stages.push(new CachedAnswers(tool, deps.cache, policy.cache, lastProvider, deps.fallback));
  stages.push(new KeyLimit(deps.keyCalls, deps.keyLimited));
  if (providers.length === 0) stages.push(NO_PROVIDER);
  else if (providers.length === 1) stages.push(...chainOf(providers[0] as Provider));
  else {
    const chains: ProviderChain[] = providers.map((provider) => ({
      id: provider.id,
      run: compose(chainOf(provider)),
    }));
    stages.push(new FallbackChain(tool.name, chains, policy, rules, deps.fallback));
  }
  return { policy, providers, run: compose(stages) };
}
