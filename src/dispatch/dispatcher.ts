// The dispatcher: every tool call runs through here. Per call: arguments against the inputSchema →
// cache → concurrency slots (per tool, then global, bounded wait) → fallback chain of providers, each as
// retry ∘ breaker ∘ timeout → canonical normaliser and outputSchema → result budget → execution record.
// Batches are partitioned into parallel groups of concurrency-safe calls; context patches land after.
import { EventEmitter } from "node:events";
import { performance } from "node:perf_hooks";
import { type Tool, validateAgainstSchema } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";
import { type BreakerInfo, BreakerRegistry } from "./breaker.ts";
import { applyBudget } from "./budget.ts";
import { Semaphore } from "./bulkhead.ts";
import { ResultCache } from "./cache.ts";
import { classify } from "./classify.ts";
import { applyPatches, unwrapContextModifier } from "./context.ts";
import { CancelledError, DispatchError, SchemaError } from "./errors.ts";
import type { DispatchEvents } from "./events.ts";
import { normaliseOutput } from "./normalise.ts";
import {
  type DispatcherOptions,
  type DispatcherOptionsInput,
  type EffectivePolicy,
  mayRetry,
  parseOptions,
  policyResolver,
} from "./options.ts";
import { partition } from "./partition.ts";
import { sleep as realSleep, retryAfterFailure, type Sleep } from "./retry.ts";
import { ExecutionLog, type ExecutionRecord, type ExecutionStatistics, type Running } from "./state.ts";
import { invokeWithTimeout } from "./timeout.ts";
import { estimateTokens, type TokenCounter, tokenCounter } from "./tokens.ts";
import type {
  CallContext,
  CallError,
  CallResult,
  CallStatus,
  ExecuteOptions,
  Provenance,
  Provider,
  ToolCall,
} from "./types.ts";

export interface DispatcherDeps {
  tools: { get(name: string): Tool | undefined };
  /** Primary first, then fallbacks. */
  providers(tool: Tool): Provider[];
  /** Where open breakers are remembered across restarts. */
  store?: DataStore;
  options?: DispatcherOptionsInput;
  /** Retry waits; tests pass one that records delays instead of waiting. */
  sleep?: Sleep;
  /** Jitter source, [0, 1). */
  random?: () => number;
}

interface Prepared {
  call: ToolCall;
  args: Record<string, unknown>;
  tool: Tool | undefined;
  policy: EffectivePolicy | undefined;
  providers: Provider[];
  /** The execution record, once #run has started; #finish closes it. */
  entry?: Running | undefined;
  /** Set by #finish; tells #runOnce that #run finished before it returned its promise. */
  finished?: boolean;
}

interface Answer {
  output: unknown;
  provider: string;
  patch?: Readonly<Record<string, unknown>> | undefined;
}

interface Outcome {
  result: CallResult;
  patch?: Readonly<Record<string, unknown>> | undefined;
}

const noPatch = undefined;
const EMPTY_CONTEXT: CallContext = Object.freeze({});

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}

export class Dispatcher extends EventEmitter<DispatchEvents> {
  readonly options: DispatcherOptions;
  readonly #deps: DispatcherDeps;
  readonly #policyOf: (tool: Tool) => EffectivePolicy;
  readonly #global: Semaphore;
  readonly #toolSlots = new Map<string, Semaphore>();
  readonly #breakers: BreakerRegistry;
  readonly #cache: ResultCache;
  readonly #log: ExecutionLog;
  readonly #context: Record<string, unknown> = {};
  readonly #sleep: Sleep;
  readonly #random: () => number;
  #count: TokenCounter = estimateTokens;
  #ready: Promise<void> | undefined;
  #loaded = false;

  constructor(deps: DispatcherDeps) {
    super();
    this.#deps = deps;
    this.options = parseOptions(deps.options);
    this.#policyOf = policyResolver(this.options);
    this.#global = new Semaphore(this.options.globalConcurrency);
    this.#breakers = new BreakerRegistry(deps.store, (change) => this.emit("breaker", change));
    this.#cache = new ResultCache(this.options.cacheEntries, () => Date.now());
    this.#log = new ExecutionLog(this.options.historySize, this.options.staleInProgressMs, () => Date.now());
    this.#sleep = deps.sleep ?? realSleep;
    this.#random = deps.random ?? Math.random;
  }

  /** Restores persisted breakers and loads the exact tokenizer if asked for; `execute` awaits it. */
  ready(): Promise<void> {
    this.#ready ??= (async () => {
      await this.#breakers.load();
      this.#count = await tokenCounter(this.options.tokenizer);
      this.#loaded = true;
    })();
    return this.#ready;
  }

  async execute(calls: readonly ToolCall[], options: ExecuteOptions = {}): Promise<CallResult[]> {
    checkCalls(calls);
    if (!this.#loaded) await this.ready();
    const { signal } = options;
    const context = options.context ?? this.#context;
    const snapshot: CallContext = isEmpty(context) ? EMPTY_CONTEXT : Object.freeze({ ...context });
    if (calls.length === 1) {
      // The common case (one call) skips partitioning and the group bookkeeping.
      const outcome = await this.#runOnce(this.#prepare(calls[0] as ToolCall), signal, snapshot);
      if (outcome.patch) applyPatches(context, [outcome.patch]);
      return [outcome.result];
    }
    const prepared = calls.map((call) => this.#prepare(call));
    const results: CallResult[] = new Array(calls.length);
    const patches: (Readonly<Record<string, unknown>> | undefined)[] = new Array(calls.length);
    const groups = partition(
      prepared.map((_, i) => i),
      (i) => this.#isSafe(prepared[i] as Prepared),
    );
    for (const group of groups) {
      await Promise.all(
        group.map(async (i) => {
          const outcome = await this.#runOnce(prepared[i] as Prepared, signal, snapshot);
          results[i] = outcome.result;
          patches[i] = outcome.patch;
        }),
      );
    }
    applyPatches(context, patches);
    return results;
  }

  breakers(): BreakerInfo[] {
    return this.#breakers.list();
  }

  executions(): ExecutionRecord[] {
    return this.#log.list();
  }

  statistics(): ExecutionStatistics {
    return this.#log.statistics();
  }

  /** The dispatcher's own context, used by batches that bring none. */
  context(): CallContext {
    return { ...this.#context };
  }

  /** Resolves once every breaker change so far is persisted; call it before shutting down. */
  close(): Promise<void> {
    return this.#breakers.flush();
  }

  #prepare(call: ToolCall): Prepared {
    const tool = this.#deps.tools.get(call.name);
    const args = call.arguments ?? {};
    if (!tool) return { call, args, tool, policy: undefined, providers: [] };
    return { call, args, tool, policy: this.#policyOf(tool), providers: this.#deps.providers(tool) };
  }

  #isSafe({ tool, policy, providers, args }: Prepared): boolean {
    if (!tool || !policy) return true; // fails before running anything
    const judge = providers[0]?.isConcurrencySafe;
    return judge ? judge.call(providers[0], args) : policy.concurrencySafe;
  }

  #runOnce(prep: Prepared, signal: AbortSignal | undefined, snapshot: CallContext): Promise<Outcome> {
    const running = this.#log.running(prep.call.id);
    // The same tool_call_id never runs twice at once: the second caller gets the first's outcome.
    // The patch goes with the first caller only, so a context change is applied once.
    if (running) return running.then((o) => ({ result: o.result }));
    const entry = this.#log.begin(prep.call.id, prep.call.name);
    const outcome = this.#run(prep, signal, snapshot);
    entry.outcome = outcome;
    // #finish closes the record itself from here on (no promise reaction per call); a run that ended
    // before this point (unknown tool, bad arguments, cache hit) is closed once its outcome settles, so a
    // duplicate id in the same batch still shares it.
    if (prep.finished) outcome.then((o) => this.#log.end(entry, o.result));
    else prep.entry = entry;
    return outcome;
  }

  async #run(prep: Prepared, signal: AbortSignal | undefined, snapshot: CallContext): Promise<Outcome> {
    const started = performance.now();
    const provenance = emptyProvenance();
    try {
      const { call, tool, policy, args } = prep;
      if (!tool || !policy) {
        const message = `unknown tool "${call.name}"`;
        this.emit("rejected", { callId: call.id, tool: call.name, class: "unknown_tool", message });
        return {
          result: this.#finish(prep, started, provenance, "failed", { class: "unknown_tool", message }),
        };
      }
      if (signal?.aborted) return { result: this.#cancelled(prep, started, provenance) };
      const issues = validateAgainstSchema(tool.inputSchema, args);
      if (issues.length > 0) {
        const error = new SchemaError("arguments", issues);
        this.emit("rejected", { callId: call.id, tool: tool.name, class: "schema", message: error.message });
        return {
          result: this.#finish(prep, started, provenance, "failed", {
            class: "schema",
            message: error.message,
            issues,
          }),
        };
      }

      const cacheKey = policy.cache ? this.#cache.key(tool, args) : undefined;
      const cached = cacheKey && policy.cache ? this.#cache.get(cacheKey, policy.cache.ttlMs) : undefined;
      if (cached && cacheKey) {
        provenance.provider = cached.provider;
        provenance.ageMs = cached.ageMs;
        provenance.stale = !cached.fresh;
        if (!cached.fresh) {
          warn(provenance, `stale answer (${cached.ageMs} ms old) served while it is refreshed`);
          this.#cache.revalidate(cacheKey, () => this.#refresh(prep, cacheKey, snapshot));
        }
        return { result: this.#finish(prep, started, provenance, "completed", undefined, cached.output) };
      }

      let queuedMs = 0;
      const slots = this.#slotsOf(tool, policy);
      let queueStart = 0;
      try {
        const waiting = this.#acquire(slots, tool.name, signal);
        if (waiting) {
          // Only a call that waits reads the clock for it; #acquire has not waited yet when it returns.
          queueStart = performance.now();
          await waiting;
          queuedMs = performance.now() - queueStart;
        }
      } catch (error) {
        const failure = error as DispatchError;
        if (failure.class === "cancelled") return { result: this.#cancelled(prep, started, provenance) };
        const message = `waited ${this.options.queueTimeoutMs} ms for a free slot (${failure.message}) and gave up`;
        this.emit("rejected", { callId: call.id, tool: tool.name, class: "queue_timeout", message });
        const waited = performance.now() - queueStart;
        const refusal: CallError = { class: "queue_timeout", message };
        return { result: this.#finish(prep, started, provenance, "failed", refusal, undefined, waited) };
      }

      let answer: Answer | undefined;
      let failure: unknown;
      try {
        answer = await this.#runChain(prep, signal, snapshot, provenance);
      } catch (error) {
        failure = error;
      } finally {
        this.#release(slots);
      }

      if (answer) {
        provenance.provider = answer.provider;
        const budgeted = applyBudget(answer.output, policy.budgetTokens, this.#count);
        // The cache holds what was served, so a cached answer never exceeds the budget either.
        if (cacheKey && policy.cache)
          this.#cache.set(
            cacheKey,
            budgeted.output,
            answer.provider,
            policy.cache.ttlMs,
            policy.cache.staleMs,
          );
        if (budgeted.omittedTokens > 0)
          warn(
            provenance,
            `output truncated to the ${policy.budgetTokens}-token budget, ~${budgeted.omittedTokens} tokens omitted`,
          );
        return {
          result: this.#finish(prep, started, provenance, "completed", undefined, budgeted.output, queuedMs),
          patch: answer.patch,
        };
      }
      return { result: this.#fail(prep, started, provenance, failure, queuedMs, signal), patch: noPatch };
    } catch (error) {
      // A fault of the dispatcher itself (a listener that throws, a bug): the call fails, it never hangs.
      return { result: this.#finish(prep, performance.now(), emptyProvenance(), "failed", internal(error)) };
    }
  }

  /** Last resorts after every provider failed: a stale cached answer, then the tool's degraded output. */
  #fail(
    prep: Prepared,
    started: number,
    provenance: Provenance,
    failure: unknown,
    queuedMs: number,
    signal: AbortSignal | undefined,
  ): CallResult {
    const tool = prep.tool as Tool;
    const policy = prep.policy as EffectivePolicy;
    const classified = classify(failure, tool.policy?.errors);
    if (classified.class === "cancelled" || signal?.aborted)
      return this.#cancelled(prep, started, provenance);
    const error: CallError = { class: classified.class, message: messageOf(failure) };
    if (failure instanceof SchemaError) error.issues = failure.issues;
    const last = prep.providers.at(-1)?.id ?? "none";
    if (policy.cache && classified.class !== "fatal") {
      const stale = this.#cache.get(this.#cache.key(tool, prep.args), policy.cache.ttlMs);
      if (stale) {
        this.emit("fallback", {
          callId: prep.call.id,
          tool: tool.name,
          from: last,
          to: "cache",
          reason: error.class,
        });
        provenance.provider = stale.provider;
        provenance.stale = true;
        provenance.ageMs = stale.ageMs;
        warn(provenance, `every provider failed (${error.message}); cached answer served`);
        return this.#finish(prep, started, provenance, "completed", undefined, stale.output, queuedMs);
      }
    }
    if (tool.policy?.degraded !== undefined && classified.class !== "fatal") {
      this.emit("fallback", {
        callId: prep.call.id,
        tool: tool.name,
        from: last,
        to: "degraded",
        reason: error.class,
      });
      provenance.provider = "degraded";
      warn(provenance, `every provider failed (${error.message}); degraded output served`);
      return this.#finish(prep, started, provenance, "completed", undefined, tool.policy.degraded, queuedMs);
    }
    if (error.class === "breaker_open")
      this.emit("rejected", {
        callId: prep.call.id,
        tool: tool.name,
        class: "breaker_open",
        message: error.message,
      });
    return this.#finish(
      prep,
      started,
      provenance,
      error.class === "timeout" ? "timeout" : "failed",
      error,
      undefined,
      queuedMs,
    );
  }

  async #runChain(
    prep: Prepared,
    signal: AbortSignal | undefined,
    snapshot: CallContext,
    provenance: Provenance,
  ): Promise<Answer> {
    const tool = prep.tool as Tool;
    const policy = prep.policy as EffectivePolicy;
    const rules = tool.policy?.errors;
    const retryAllowed = mayRetry(policy, prep.args);
    if (prep.providers.length === 0) throw new DispatchError("fatal", `tool "${tool.name}" has no provider`);
    let lastError: unknown;
    for (let index = 0; index < prep.providers.length; index++) {
      const provider = prep.providers[index] as Provider;
      if (index > 0) {
        const reason = classify(lastError, rules).class;
        this.emit("fallback", {
          callId: prep.call.id,
          tool: tool.name,
          from: prep.providers[index - 1]?.id ?? "",
          to: provider.id,
          reason,
        });
      }
      const breaker = this.#breakers.get(tool.name, provider.id, policy.breaker, rules);
      let patch: Readonly<Record<string, unknown>> | undefined;
      try {
        const attempt = () =>
          breaker.execute(() => {
            provenance.attempts++;
            return invokeWithTimeout(
              provider,
              prep.args,
              prep.call.id,
              snapshot,
              policy.timeoutMs,
              signal,
              (raw) => {
                const unwrapped = unwrapContextModifier(raw);
                patch = unwrapped.patch;
                return normaliseOutput(unwrapped.output, tool.outputSchema);
              },
            );
          });
        let output: unknown;
        try {
          output = await attempt();
        } catch (error) {
          // The first attempt is awaited here rather than through retry.ts, so a call that succeeds at
          // once passes no retry wrapper; the retry scope is built only after a failure.
          if (!retryAllowed || policy.retry.retries === 0) throw error;
          output = await retryAfterFailure(error, attempt, {
            settings: policy.retry,
            rules,
            provider,
            signal,
            sleep: this.#sleep,
            random: this.#random,
            onRetry: ({ retry, failure, delayMs }) =>
              this.emit("retry", {
                callId: prep.call.id,
                tool: tool.name,
                provider: provider.id,
                retry,
                class: failure.class as RetryClass,
                delayMs,
              }),
          });
        }
        provenance.breakers[provider.id] = breaker.state;
        return { output, provider: provider.id, patch };
      } catch (error) {
        provenance.breakers[provider.id] = breaker.state;
        lastError = error;
        if (!this.#mayFallBack(classify(error, rules).class, retryAllowed)) break;
      }
    }
    throw lastError;
  }

  /**
   * Whether the next provider may be tried. Input errors and cancellations end the chain. A call that may
   * not be retried moves on only when its provider certainly did not run it (breaker open, credentials
   * refused), so a side effect never happens twice.
   */
  #mayFallBack(cls: string, retryAllowed: boolean): boolean {
    if (cls === "fatal" || cls === "cancelled") return false;
    return retryAllowed || cls === "breaker_open" || cls === "credentials";
  }

  async #refresh(prep: Prepared, cacheKey: string, snapshot: CallContext): Promise<void> {
    const tool = prep.tool as Tool;
    const policy = prep.policy as EffectivePolicy;
    const slots = this.#slotsOf(tool, policy);
    await this.#acquire(slots, tool.name, undefined);
    try {
      const answer = await this.#runChain(prep, undefined, snapshot, emptyProvenance());
      const { output } = applyBudget(answer.output, policy.budgetTokens, this.#count);
      if (policy.cache)
        this.#cache.set(cacheKey, output, answer.provider, policy.cache.ttlMs, policy.cache.staleMs);
    } finally {
      this.#release(slots);
    }
  }

  #slotsOf(tool: Tool, policy: EffectivePolicy): Semaphore {
    let slots = this.#toolSlots.get(tool.name);
    if (!slots || slots.limit !== policy.concurrencyLimit) {
      slots = new Semaphore(policy.concurrencyLimit);
      this.#toolSlots.set(tool.name, slots);
    }
    return slots;
  }

  /**
   * Holds a per-tool slot, then a global one (always in this order, so two calls never deadlock). Returns
   * at once, without a promise, when both are free.
   */
  #acquire(slots: Semaphore, tool: string, signal: AbortSignal | undefined): Promise<void> | undefined {
    if (slots.tryAcquire()) {
      if (this.#global.tryAcquire()) return undefined;
      slots.release();
    }
    return this.#acquireWaiting(slots, tool, signal);
  }

  async #acquireWaiting(slots: Semaphore, tool: string, signal: AbortSignal | undefined): Promise<void> {
    const deadline = performance.now() + this.options.queueTimeoutMs;
    await slots.acquire(this.options.queueTimeoutMs, `tool ${tool}`, signal);
    try {
      await this.#global.acquire(Math.max(1, deadline - performance.now()), "all tools", signal);
    } catch (error) {
      slots.release();
      throw error;
    }
  }

  #release(slots: Semaphore): void {
    this.#global.release();
    slots.release();
  }

  #cancelled(prep: Prepared, started: number, provenance: Provenance): CallResult {
    return this.#finish(prep, started, provenance, "cancelled", {
      class: "cancelled",
      message: new CancelledError().message,
    });
  }

  #finish(
    prep: Prepared,
    started: number,
    provenance: Provenance,
    status: CallStatus,
    error: CallError | undefined,
    output?: unknown,
    queuedMs = 0,
  ): CallResult {
    const totalMs = performance.now() - started;
    const result: CallResult = {
      id: prep.call.id,
      name: prep.call.name,
      status,
      provenance,
      timing: { queuedMs, runMs: Math.max(0, totalMs - queuedMs), totalMs },
    };
    if (output !== undefined) result.output = output;
    if (error) result.error = error;
    prep.finished = true;
    if (prep.entry) this.#log.end(prep.entry, result);
    this.emit("call", result);
    return result;
  }
}

type RetryClass = DispatchEvents["retry"][0]["class"];

function warn(provenance: Provenance, message: string): void {
  if (provenance.warnings) provenance.warnings.push(message);
  else provenance.warnings = [message];
}

function emptyProvenance(): Provenance {
  return { attempts: 0, stale: false, breakers: {} };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function internal(error: unknown): CallError {
  return { class: "unknown", message: `dispatcher error: ${messageOf(error)}` };
}

function checkCalls(calls: readonly ToolCall[]): void {
  if (!Array.isArray(calls)) throw new TypeError("execute(calls): calls must be an array");
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (!call || typeof call !== "object")
      throw new TypeError(`execute(calls): calls[${i}] must be an object`);
    if (typeof call.id !== "string" || call.id === "")
      throw new TypeError(`execute(calls): calls[${i}].id must be a non-empty string`);
    if (typeof call.name !== "string" || call.name === "")
      throw new TypeError(`execute(calls): calls[${i}].name must be a non-empty string`);
    const args = call.arguments;
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
      throw new TypeError(`execute(calls): calls[${i}].arguments must be an object`);
  }
}
