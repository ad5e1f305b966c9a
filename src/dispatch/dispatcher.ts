// The dispatcher: every tool call runs through here. Per call: arguments against the inputSchema →
// cache → concurrency slots (per tool, then global, bounded wait) → fallback chain of providers, each as
// retry ∘ breaker ∘ timeout → canonical normaliser and outputSchema → result budget → execution record.
// Batches are partitioned into parallel groups of concurrency-safe calls; context patches land after.
import { EventEmitter } from "node:events";
import { performance } from "node:perf_hooks";
import { type SchemaCheck, type SchemaIssue, schemaCheck, type Tool } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";
import { type BreakerInfo, BreakerRegistry, type ToolBreaker } from "./breaker.ts";
import { applyBudget, fitsBudget } from "./budget.ts";
import { Semaphore } from "./bulkhead.ts";
import { type CacheLink, ResultCache } from "./cache.ts";
import { classify } from "./classify.ts";
import { applyPatches, outputOf, patchOf } from "./context.ts";
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
import { type AttemptSink, invokeWithDeadline, invokeWithTimeout } from "./timeout.ts";
import { estimateTokens, type TokenCounter, tokenCounter } from "./tokens.ts";
import type {
  CallContext,
  CallError,
  CallResult,
  CallStatus,
  CallTiming,
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

type Patch = Readonly<Record<string, unknown>>;

interface Answer {
  output: unknown;
  provider: string;
  patch?: Patch | undefined;
}

/** A first attempt's failure, handed to the chain that continues after it. */
interface FirstFailure {
  error: unknown;
}

/** What a call's first attempt reports to: the dispatcher's handlers, made once per dispatcher. */
interface FirstAttemptHandlers {
  answered(run: Run, answer: unknown): void;
  failed(run: Run, error: unknown): void;
}

/**
 * One call on its way through the pipeline: what it needs, what is known so far, and whom to tell. It is
 * also its own execution-log entry and its first attempt's sink, so neither costs an object of its own.
 * Every field is `declare`d (so no class field is emitted) and assigned in the constructor, none is private
 * and nothing is inherited: V8 then makes one plain object, where a subclass with field initialisers and
 * private fields cost a `super` call and an initialiser call per call until it was optimised fully
 * (measured in `npm run bench:dispatch`).
 */
class Run implements Running, AttemptSink {
  declare readonly id: string;
  declare readonly name: string;
  declare startedAt: number;
  declare finished: boolean;
  declare waiters: ((result: CallResult) => void)[] | undefined;
  declare readonly call: ToolCall;
  declare readonly args: Record<string, unknown>;
  declare readonly tool: Tool | undefined;
  declare readonly policy: EffectivePolicy | undefined;
  declare readonly providers: Provider[];
  declare readonly signal: AbortSignal | undefined;
  declare readonly snapshot: CallContext;
  declare readonly handlers: FirstAttemptHandlers;
  /** Written by the slow paths only; see `provenance` and `answeredAtOnce`. */
  declare ownProvenance: Provenance | undefined;
  /**
   * The shared, frozen provenance of a call its first provider answered at the first attempt through a
   * closed breaker (the common case): made once per breaker instead of per call.
   */
  declare answeredAtOnce: Provenance | undefined;
  /** The first provider's first attempt was made by #call (it counts in `attempts`). */
  declare attempted: boolean;
  declare started: number;
  /** When the call got its slots (performance.now()). */
  declare readyAt: number;
  declare queuedMs: number;
  declare cacheKey: string | undefined;
  /** Whether the call is in the execution log; not when it shares another call's result. */
  declare logged: boolean;
  /** The per-tool slots while this call holds them (and a global slot with them). */
  declare slots: Semaphore | undefined;
  /** The context patch of a finished call; the batch applies it after every call has finished. */
  declare patch: Patch | undefined;
  /** True while #start runs: a call finished by then closes its record a microtask later (see #finish). */
  declare starting: boolean;
  /** The result is built (a fault after that must not build another). */
  declare done: boolean;
  /** Whom the result goes to: a single call's caller (as `[result]`), or a batch's slot. */
  declare resolveSingle: ((results: CallResult[]) => void) | undefined;
  declare resolveInBatch: ((result: CallResult) => void) | undefined;
  /** A single call's context, which its patch changes once it has finished. */
  declare context: Record<string, unknown> | undefined;
  /** The provider and breaker of the first attempt, made by #call on a closed breaker. */
  declare provider: Provider | undefined;
  declare breaker: ToolBreaker | undefined;

  constructor(
    handlers: FirstAttemptHandlers,
    call: ToolCall,
    tool: Tool | undefined,
    policy: EffectivePolicy | undefined,
    providers: Provider[],
    signal: AbortSignal | undefined,
    snapshot: CallContext,
  ) {
    this.id = call.id;
    this.name = call.name;
    this.startedAt = 0;
    this.finished = false;
    this.waiters = undefined;
    this.call = call;
    this.args = call.arguments ?? {};
    this.tool = tool;
    this.policy = policy;
    this.providers = providers;
    this.signal = signal;
    this.snapshot = snapshot;
    this.handlers = handlers;
    this.ownProvenance = undefined;
    this.answeredAtOnce = undefined;
    this.attempted = false;
    this.started = 0;
    this.readyAt = 0;
    this.queuedMs = 0;
    this.cacheKey = undefined;
    this.logged = false;
    this.slots = undefined;
    this.patch = undefined;
    this.starting = false;
    this.done = false;
    this.resolveSingle = undefined;
    this.resolveInBatch = undefined;
    this.context = undefined;
    this.provider = undefined;
    this.breaker = undefined;
  }

  /** The call's provenance to write to, made on first use (from the shared one, if the call has it). */
  get provenance(): Provenance {
    let provenance = this.ownProvenance;
    if (!provenance) {
      const shared = this.answeredAtOnce;
      provenance = shared
        ? { ...shared, breakers: { ...shared.breakers } }
        : { attempts: this.attempted ? 1 : 0, stale: false, breakers: {} };
      this.answeredAtOnce = undefined;
      this.ownProvenance = provenance;
    }
    return provenance;
  }

  /** The provenance the result carries. */
  finalProvenance(): Provenance {
    return this.ownProvenance ?? this.answeredAtOnce ?? this.provenance;
  }

  /** Hands the result to whoever waits for it. */
  deliver(result: CallResult): void {
    const single = this.resolveSingle;
    if (single) {
      if (this.patch && this.context) applyPatches(this.context, [this.patch]);
      single([result]);
    } else this.resolveInBatch?.(result);
  }

  answered(answer: unknown): void {
    this.handlers.answered(this, answer);
  }

  failed(error: unknown): void {
    this.handlers.failed(this, error);
  }
}

const EMPTY_CONTEXT: CallContext = Object.freeze({});

function snapshotOf(context: Record<string, unknown>): CallContext {
  for (const _ in context) return Object.freeze({ ...context });
  return EMPTY_CONTEXT;
}

export class Dispatcher extends EventEmitter<DispatchEvents> {
  readonly options: DispatcherOptions;
  readonly #deps: DispatcherDeps;
  readonly #policyOf: (tool: Tool) => EffectivePolicy;
  readonly #global: Semaphore;
  readonly #toolSlots = new Map<string, Semaphore>();
  /** Counts changes to #toolSlots, so a policy's cached slots are known to be current. */
  #slotsGeneration = 0;
  readonly #breakers: BreakerRegistry;
  readonly #cache: ResultCache;
  readonly #log: ExecutionLog;
  readonly #context: Record<string, unknown> = {};
  readonly #sleep: Sleep;
  readonly #random: () => number;
  #count: TokenCounter = estimateTokens;
  #ready: Promise<void> | undefined;
  #loaded = false;
  readonly #firstAttempt: FirstAttemptHandlers = {
    answered: (run, answer) => this.#firstAnswered(run, answer),
    failed: (run, error) => this.#settleChain(run, this.#runChain(run, { error })),
  };

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

  execute(calls: readonly ToolCall[], options?: ExecuteOptions): Promise<CallResult[]> {
    try {
      checkCalls(calls);
    } catch (error) {
      return Promise.reject(error);
    }
    if (calls.length !== 1 || !this.#loaded) return this.#executeBatch(calls, options ?? {});
    // One call on a ready dispatcher, the common case, takes no async function and no partitioning: the
    // call's completion resolves the promise the caller awaits, so a call that succeeds at once costs the
    // provider's promise, one reaction to it, and this promise (measured in `npm run bench:dispatch`).
    // Inside the executor, so that a throwing registry or provider list rejects, as it did in an async one.
    return new Promise((resolve) => {
      const context = options?.context ?? this.#context;
      const run = this.#prepare(calls[0] as ToolCall, options?.signal, snapshotOf(context));
      run.context = context;
      run.resolveSingle = resolve;
      this.#start(run);
    });
  }

  async #executeBatch(calls: readonly ToolCall[], options: ExecuteOptions): Promise<CallResult[]> {
    if (!this.#loaded) await this.ready();
    const context = options.context ?? this.#context;
    const snapshot = snapshotOf(context);
    const runs = calls.map((call) => this.#prepare(call, options.signal, snapshot));
    const results: CallResult[] = new Array(calls.length);
    const groups = partition(
      runs.map((_, i) => i),
      (i) => this.#isSafe(runs[i] as Run),
    );
    for (const group of groups) {
      await Promise.all(
        group.map(async (i) => {
          results[i] = await this.#result(runs[i] as Run);
        }),
      );
    }
    applyPatches(
      context,
      runs.map((run) => run.patch),
    );
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

  /**
   * Holds a breaker open on behalf of another replica whose calls opened it (shared breaker state): calls
   * here fail fast as breaker_open until the returned release. Undefined for a tool not known here.
   */
  holdOpen(toolName: string, provider: string): (() => void) | undefined {
    const tool = this.#deps.tools.get(toolName);
    if (!tool) return undefined;
    const breaker = this.#breakers.get(
      tool.name,
      provider,
      this.#policyOf(tool).breaker,
      tool.policy?.errors,
    );
    const hold = breaker.policy.isolate();
    return () => hold.dispose();
  }

  /**
   * Shares the result cache with other replicas: `link` hears every answer stored here; the returned link
   * stores theirs here.
   */
  shareCache(link: CacheLink): CacheLink {
    this.#cache.link(link);
    return { publish: (...answer) => this.#cache.adopt(...answer) };
  }

  /** Resolves once every breaker change so far is persisted; call it before shutting down. */
  close(): Promise<void> {
    return this.#breakers.flush();
  }

  #prepare(call: ToolCall, signal: AbortSignal | undefined, snapshot: CallContext): Run {
    const tool = this.#deps.tools.get(call.name);
    const handlers = this.#firstAttempt;
    if (!tool) return new Run(handlers, call, tool, undefined, [], signal, snapshot);
    return new Run(handlers, call, tool, this.#policyOf(tool), this.#deps.providers(tool), signal, snapshot);
  }

  #isSafe({ tool, policy, providers, args }: Run): boolean {
    if (!tool || !policy) return true; // fails before running anything
    const judge = providers[0]?.isConcurrencySafe;
    return judge ? judge.call(providers[0], args) : policy.concurrencySafe;
  }

  #result(run: Run): Promise<CallResult> {
    return new Promise((resolve) => {
      run.resolveInBatch = resolve;
      this.#start(run);
    });
  }

  /** Starts a call; `run.deliver` hands on its result. */
  #start(run: Run): void {
    const running = this.#log.running(run.call.id);
    // The same tool_call_id never runs twice at once: the second caller gets the first's result. The patch
    // goes with the first caller only, so a context change is applied once.
    if (running) {
      this.#log.share(running, (result) => run.deliver(result));
      return;
    }
    run.started = performance.now();
    this.#log.begin(run, run.started);
    run.logged = true;
    run.starting = true;
    this.#run(run);
    run.starting = false;
  }

  /**
   * Everything up to the provider, synchronously: arguments, cache, slots. A call waits (and goes on in a
   * reaction) only for a slot that is not free.
   */
  #run(run: Run): void {
    try {
      const { tool, policy, args } = run;
      if (!tool || !policy) {
        this.#unknownTool(run);
        return;
      }
      if (run.signal?.aborted) {
        this.#cancelled(run);
        return;
      }
      policy.inputCheck ??= schemaCheck(tool.inputSchema);
      const issues = policy.inputCheck(args);
      if (issues) {
        this.#badArguments(run, tool, issues);
        return;
      }
      if (policy.cache && this.#servedFromCache(run, tool, policy.cache)) return;
      const slots = this.#slotsOf(tool, policy);
      const waiting = this.#acquire(slots, tool.name, run.signal);
      if (waiting) {
        this.#waitForSlots(run, slots, waiting);
        return;
      }
      run.slots = slots;
      run.readyAt = run.started;
      this.#call(run);
    } catch (error) {
      this.#fault(run, error);
    }
  }

  // The outcomes before any slot, each in a method of its own: kept out of #run, the success path is small
  // enough for V8 to inline and optimise it early (see "Overhead" in the README).

  #unknownTool(run: Run): void {
    const { call } = run;
    const message = `unknown tool "${call.name}"`;
    this.emit("rejected", { callId: call.id, tool: call.name, class: "unknown_tool", message });
    this.#finish(run, "failed", { class: "unknown_tool", message });
  }

  #badArguments(run: Run, tool: Tool, issues: SchemaIssue[]): void {
    const error = new SchemaError("arguments", issues);
    this.emit("rejected", { callId: run.call.id, tool: tool.name, class: "schema", message: error.message });
    this.#finish(run, "failed", { class: "schema", message: error.message, issues });
  }

  /** Serves a cached answer (a stale one while it is refreshed), if there is one; false otherwise. */
  #servedFromCache(run: Run, tool: Tool, cache: { ttlMs: number }): boolean {
    const cacheKey = this.#cache.key(tool, run.args);
    run.cacheKey = cacheKey;
    const cached = this.#cache.get(cacheKey, cache.ttlMs);
    if (!cached) return false;
    const { provenance } = run;
    provenance.provider = cached.provider;
    provenance.ageMs = cached.ageMs;
    provenance.stale = !cached.fresh;
    if (!cached.fresh) {
      warn(provenance, `stale answer (${cached.ageMs} ms old) served while it is refreshed`);
      this.#cache.revalidate(cacheKey, () => this.#refresh(run, cacheKey));
    }
    this.#finish(run, "completed", undefined, cached.output);
    return true;
  }

  #waitForSlots(run: Run, slots: Semaphore, waiting: Promise<void>): void {
    // Only a call that waits reads the clock for it; #acquire has not waited yet when it returns.
    const queueStart = performance.now();
    waiting.then(
      () => {
        run.slots = slots;
        run.readyAt = performance.now();
        run.queuedMs = run.readyAt - queueStart;
        try {
          this.#call(run);
        } catch (error) {
          this.#fault(run, error);
        }
      },
      (error: DispatchError) => {
        try {
          if (error.class === "cancelled") {
            this.#cancelled(run);
            return;
          }
          const message = `waited ${this.options.queueTimeoutMs} ms for a free slot (${error.message}) and gave up`;
          this.emit("rejected", {
            callId: run.call.id,
            tool: run.call.name,
            class: "queue_timeout",
            message,
          });
          run.queuedMs = performance.now() - queueStart;
          this.#finish(run, "failed", { class: "queue_timeout", message });
        } catch (fault) {
          this.#fault(run, fault);
        }
      },
    );
  }

  /**
   * The call holds its slots. On a closed breaker the first provider's first attempt runs right here and
   * a success is finished in the provider promise's one reaction (#firstAnswered); anything else (a
   * failure, an open breaker, no provider) continues in #runChain, which retries and falls back.
   */
  #call(run: Run): void {
    const tool = run.tool as Tool;
    const policy = run.policy as EffectivePolicy;
    const provider = run.providers[0];
    let breaker = policy.firstBreaker;
    if (provider && breaker?.provider !== provider.id) {
      breaker = this.#breakers.get(tool.name, provider.id, policy.breaker, tool.policy?.errors);
      policy.firstBreaker = breaker;
    }
    if (!provider || !breaker?.closed) {
      this.#settleChain(run, this.#runChain(run));
      return;
    }
    run.attempted = true;
    run.provider = provider;
    run.breaker = breaker;
    const { args, call, snapshot, signal } = run;
    invokeWithDeadline(provider, args, call.id, snapshot, policy.timeoutMs, signal, run, run.readyAt);
  }

  #firstAnswered(run: Run, raw: unknown): void {
    const provider = run.provider as Provider;
    const breaker = run.breaker as ToolBreaker;
    try {
      let output: unknown;
      try {
        output = normaliseOutput(
          outputOf(raw),
          outputCheckOf(run.tool as Tool, run.policy as EffectivePolicy),
        );
      } catch (error) {
        this.#settleChain(run, this.#runChain(run, { error }));
        return;
      }
      breaker.succeeded();
      // Another call's failure may have opened the breaker meanwhile; then the state is written down.
      if (breaker.closed) run.answeredAtOnce = breaker.answeredAtOnce;
      else run.provenance.breakers[provider.id] = breaker.state;
      this.#release(run);
      this.#served(run, output, provider.id, patchOf(raw));
    } catch (fault) {
      this.#fault(run, fault);
    }
  }

  #settleChain(run: Run, chain: Promise<Answer>): void {
    chain.then(
      (answer) => {
        this.#release(run);
        try {
          this.#served(run, answer.output, answer.provider, answer.patch);
        } catch (fault) {
          this.#fault(run, fault);
        }
      },
      (failure: unknown) => {
        this.#release(run);
        try {
          this.#fail(run, failure);
        } catch (fault) {
          this.#fault(run, fault);
        }
      },
    );
  }

  /** A provider's answer, checked: held to the result budget, cached, and finished. */
  #served(run: Run, output: unknown, provider: string, patch: Patch | undefined): void {
    const policy = run.policy as EffectivePolicy;
    // The shared provenance names its provider already.
    if (!run.answeredAtOnce) run.provenance.provider = provider;
    let served = output;
    if (!fitsBudget(output, policy.budgetTokens, this.#count)) {
      const budgeted = applyBudget(output, policy.budgetTokens, this.#count);
      served = budgeted.output;
      if (budgeted.omittedTokens > 0)
        warn(
          run.provenance,
          `output truncated to the ${policy.budgetTokens}-token budget, ~${budgeted.omittedTokens} tokens omitted`,
        );
    }
    // The cache holds what was served, so a cached answer never exceeds the budget either.
    if (run.cacheKey && policy.cache)
      this.#cache.set(run.cacheKey, served, provider, policy.cache.ttlMs, policy.cache.staleMs);
    this.#finish(run, "completed", undefined, served, patch);
  }

  /** Last resorts after every provider failed: a stale cached answer, then the tool's degraded output. */
  #fail(run: Run, failure: unknown): void {
    const tool = run.tool as Tool;
    const policy = run.policy as EffectivePolicy;
    const { provenance } = run;
    const classified = classify(failure, tool.policy?.errors);
    if (classified.class === "cancelled" || run.signal?.aborted) {
      this.#cancelled(run);
      return;
    }
    const error: CallError = { class: classified.class, message: messageOf(failure) };
    if (failure instanceof SchemaError) error.issues = failure.issues;
    const last = run.providers.at(-1)?.id ?? "none";
    if (policy.cache && classified.class !== "fatal") {
      const stale = this.#cache.get(this.#cache.key(tool, run.args), policy.cache.ttlMs);
      if (stale) {
        this.emit("fallback", {
          callId: run.call.id,
          tool: tool.name,
          from: last,
          to: "cache",
          reason: error.class,
        });
        provenance.provider = stale.provider;
        provenance.stale = true;
        provenance.ageMs = stale.ageMs;
        warn(provenance, `every provider failed (${error.message}); cached answer served`);
        this.#finish(run, "completed", undefined, stale.output);
        return;
      }
    }
    if (tool.policy?.degraded !== undefined && classified.class !== "fatal") {
      this.emit("fallback", {
        callId: run.call.id,
        tool: tool.name,
        from: last,
        to: "degraded",
        reason: error.class,
      });
      provenance.provider = "degraded";
      warn(provenance, `every provider failed (${error.message}); degraded output served`);
      this.#finish(run, "completed", undefined, tool.policy.degraded);
      return;
    }
    if (error.class === "breaker_open")
      this.emit("rejected", {
        callId: run.call.id,
        tool: tool.name,
        class: "breaker_open",
        message: error.message,
      });
    this.#finish(run, error.class === "timeout" ? "timeout" : "failed", error);
  }

  /**
   * The fallback chain: each provider as retry ∘ breaker ∘ timeout. `first` is the failure of the first
   * provider's first attempt when #call already made it (on a closed breaker); it is recorded with the
   * breaker and retried exactly as if it had been made here.
   */
  async #runChain(run: Run, first?: FirstFailure): Promise<Answer> {
    const tool = run.tool as Tool;
    const policy = run.policy as EffectivePolicy;
    const { provenance } = run;
    const rules = tool.policy?.errors;
    const retryAllowed = mayRetry(policy, run.args);
    if (run.providers.length === 0) throw new DispatchError("fatal", `tool "${tool.name}" has no provider`);
    let lastError: unknown;
    for (let index = 0; index < run.providers.length; index++) {
      const provider = run.providers[index] as Provider;
      if (index > 0) {
        const reason = classify(lastError, rules).class;
        this.emit("fallback", {
          callId: run.call.id,
          tool: tool.name,
          from: run.providers[index - 1]?.id ?? "",
          to: provider.id,
          reason,
        });
      }
      const breaker = this.#breakers.get(tool.name, provider.id, policy.breaker, rules);
      let patch: Patch | undefined;
      try {
        const attempt = () =>
          breaker.execute(() => {
            provenance.attempts++;
            return invokeWithTimeout(
              provider,
              run.args,
              run.call.id,
              run.snapshot,
              policy.timeoutMs,
              run.signal,
              (raw) => {
                const output = normaliseOutput(outputOf(raw), outputCheckOf(tool, policy));
                patch = patchOf(raw);
                return output;
              },
            );
          });
        let output: unknown;
        try {
          output = index === 0 && first ? await breaker.failedWhileClosed(first.error) : await attempt();
        } catch (error) {
          // The retry scope is built only after a failure, so a call that succeeds at once never builds it.
          if (!retryAllowed || policy.retry.retries === 0) throw error;
          output = await retryAfterFailure(error, attempt, {
            settings: policy.retry,
            rules,
            provider,
            signal: run.signal,
            sleep: this.#sleep,
            random: this.#random,
            onRetry: ({ retry, failure, delayMs }) =>
              this.emit("retry", {
                callId: run.call.id,
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

  /** Stale-while-revalidate: runs the chain again, outside the call that served the stale answer. */
  async #refresh(served: Run, cacheKey: string): Promise<void> {
    const tool = served.tool as Tool;
    const policy = served.policy as EffectivePolicy;
    const { call, providers, snapshot } = served;
    const run = new Run(this.#firstAttempt, call, tool, policy, providers, undefined, snapshot);
    const slots = this.#slotsOf(tool, policy);
    await this.#acquire(slots, tool.name, undefined);
    try {
      const answer = await this.#runChain(run);
      const { output } = applyBudget(answer.output, policy.budgetTokens, this.#count);
      if (policy.cache)
        this.#cache.set(cacheKey, output, answer.provider, policy.cache.ttlMs, policy.cache.staleMs);
    } finally {
      this.#releaseSlots(slots);
    }
  }

  #slotsOf(tool: Tool, policy: EffectivePolicy): Semaphore {
    if (policy.slots && policy.slotsGeneration === this.#slotsGeneration) return policy.slots;
    let slots = this.#toolSlots.get(tool.name);
    if (!slots || slots.limit !== policy.concurrencyLimit) {
      slots = new Semaphore(policy.concurrencyLimit);
      this.#toolSlots.set(tool.name, slots);
      this.#slotsGeneration++;
    }
    policy.slots = slots;
    policy.slotsGeneration = this.#slotsGeneration;
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

  /** Gives back the call's slots, if it still holds them. */
  #release(run: Run): void {
    const slots = run.slots;
    if (!slots) return;
    run.slots = undefined;
    this.#releaseSlots(slots);
  }

  #releaseSlots(slots: Semaphore): void {
    this.#global.release();
    slots.release();
  }

  #cancelled(run: Run): void {
    this.#finish(run, "cancelled", { class: "cancelled", message: new CancelledError().message });
  }

  /** A fault of the dispatcher itself (a bug, a listener that throws): the call fails, it never hangs. */
  #fault(run: Run, error: unknown): void {
    this.#release(run);
    this.#finish(run, "failed", internal(error));
  }

  #finish(run: Run, status: CallStatus, error: CallError | undefined, output?: unknown, patch?: Patch): void {
    if (run.done) return;
    run.done = true;
    const totalMs = performance.now() - run.started;
    const { queuedMs } = run;
    const provenance = run.finalProvenance();
    const timing: CallTiming = { queuedMs, runMs: Math.max(0, totalMs - queuedMs), totalMs };
    // One literal per shape, so a result never changes hidden class (nor grows a property store) after it
    // is made; the key order is the one results always had.
    let result: CallResult =
      output !== undefined
        ? error
          ? { id: run.call.id, name: run.call.name, status, provenance, timing, output, error }
          : { id: run.call.id, name: run.call.name, status, provenance, timing, output }
        : error
          ? { id: run.call.id, name: run.call.name, status, provenance, timing, error }
          : { id: run.call.id, name: run.call.name, status, provenance, timing };
    run.patch = patch;
    try {
      // Most dispatchers have no listener; emit would still gather its arguments.
      if (this.listenerCount("call") > 0) this.emit("call", result);
    } catch (fault) {
      // A listener that throws fails the call (and is not called again for it).
      result = { ...result, status: "failed", error: internal(fault) };
      delete result.output;
      run.patch = undefined;
    }
    if (run.logged) {
      // A call finished before it even started waiting (unknown tool, bad arguments, cache hit) keeps its
      // id for one more microtask, so a duplicate id later in the same batch still shares its result.
      if (run.starting) queueMicrotask(() => this.#log.end(run, result));
      else this.#log.end(run, result);
    }
    run.deliver(result);
  }
}

type RetryClass = DispatchEvents["retry"][0]["class"];

/** The tool's compiled outputSchema, undefined when it has none. */
function outputCheckOf(tool: Tool, policy: EffectivePolicy): SchemaCheck | undefined {
  if (!tool.outputSchema) return undefined;
  policy.outputCheck ??= schemaCheck(tool.outputSchema);
  return policy.outputCheck;
}

function warn(provenance: Provenance, message: string): void {
  if (provenance.warnings) provenance.warnings.push(message);
  else provenance.warnings = [message];
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
