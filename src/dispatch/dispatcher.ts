// The dispatcher: every tool call runs through its tool's pipeline (tool-pipeline.ts), built once per
// tool definition. Here: batches (partitioned into parallel groups of concurrency-safe calls, context
// patches applied after), the same call id never running twice at once, the result of each call, the
// execution record, and the events for metrics and tracing.
import { EventEmitter } from "node:events";
import { performance } from "node:perf_hooks";
import type { Tool } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";
import { type BreakerInfo, BreakerRegistry } from "./breaker.ts";
import { Semaphore } from "./bulkhead.ts";
import { type CacheLink, ResultCache } from "./cache.ts";
import { Call } from "./call.ts";
import { classify } from "./classify.ts";
import { applyPatches } from "./context-modifiers.ts";
import { CancelledError, SchemaError } from "./errors.ts";
import type { DispatchEvents } from "./events.ts";
import { KeyBudgets } from "./key-budgets.ts";
import { KeyCalls } from "./key-calls.ts";
import {
  type DispatcherOptions,
  type DispatcherOptionsInput,
  parseOptions,
  resolvePolicy,
} from "./options.ts";
import { partition } from "./partition.ts";
import { sleep as realSleep, type Sleep } from "./retry.ts";
import { ExecutionLog, type ExecutionRecord, type ExecutionStatistics, type Running } from "./state.ts";
import { estimateTokens, type TokenCounter, tokenCounter } from "./tokens.ts";
import { buildPipeline, type PipelineDeps, type ToolPipeline } from "./tool-pipeline.ts";
import type {
  CallContext,
  CallError,
  CallResult,
  CallStatus,
  CallTiming,
  ExecuteOptions,
  Provider,
  ToolCall,
} from "./types.ts";

export interface DispatcherDeps {
  tools: { get(name: string): Tool | undefined };
  /** The error message for a call to a tool not in `tools` (default: `unknown tool "<name>"`). */
  unknownTool?(name: string): string;
  /** Primary first, then fallbacks; asked once per tool definition. */
  providers(tool: Tool): Provider[];
  /** Where open breakers are remembered across restarts. */
  store?: DataStore;
  options?: DispatcherOptionsInput;
  /** Retry waits; tests pass one that records delays instead of waiting. */
  sleep?: Sleep;
  /** Jitter source, [0, 1). */
  random?: () => number;
}

const EMPTY_CONTEXT: CallContext = Object.freeze({});

function snapshotOf(context: Record<string, unknown>): CallContext {
  for (const _ in context) return Object.freeze({ ...context });
  return EMPTY_CONTEXT;
}

export class Dispatcher extends EventEmitter<DispatchEvents> {
  readonly options: DispatcherOptions;
  readonly #deps: DispatcherDeps;
  readonly #pipelines = new WeakMap<Tool, ToolPipeline>();
  /** The last tool looked up and its pipeline: calls to one tool in a row skip the WeakMap. */
  #lastTool: Tool | undefined;
  #lastPipeline: ToolPipeline | undefined;
  readonly #slots = new Map<string, Semaphore>();
  readonly #breakers: BreakerRegistry;
  readonly #log: ExecutionLog;
  readonly #context: Record<string, unknown> = {};
  readonly #pipelineDeps: PipelineDeps;
  #count: TokenCounter = estimateTokens;
  /** The call whose pipeline is being entered, synchronously; see #finish. */
  #starting: Call | undefined;
  #ready: Promise<void> | undefined;
  #loaded = false;

  constructor(deps: DispatcherDeps) {
    super();
    this.#deps = deps;
    this.options = parseOptions(deps.options);
    this.#breakers = new BreakerRegistry(deps.store, (change) => this.emit("breaker", change));
    this.#log = new ExecutionLog(this.options.historySize, this.options.staleInProgressMs, () => Date.now());
    this.#pipelineDeps = {
      options: this.options,
      breakers: this.#breakers,
      cache: new ResultCache(this.options.cacheEntries, () => Date.now()),
      global: new Semaphore(this.options.globalConcurrency),
      keyCalls: new KeyCalls(this.options.perKeyCalls),
      keyBudgets: new KeyBudgets(this.options.keyRetryBudget),
      slotsFor: (tool, limit) => this.#slotsFor(tool, limit),
      count: () => this.#count,
      sleep: deps.sleep ?? realSleep,
      random: deps.random ?? Math.random,
      retried: (notice) => this.emit("retry", notice),
      fallback: (notice) => this.emit("fallback", notice),
      badArguments: (call, error) =>
        this.emit("rejected", { callId: call.id, tool: call.name, class: "schema", message: error.message }),
      queueTimedOut: (call, message) =>
        this.emit("rejected", { callId: call.id, tool: call.name, class: "queue_timeout", message }),
      keyLimited: (call, message) =>
        this.emit("rejected", { callId: call.id, tool: call.name, class: "key_limit", message }),
    };
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
    // One call on a ready dispatcher, the common case: the call's result resolves the promise the caller
    // awaits, without an async function or partitioning. Inside the executor, so that a throwing registry
    // or provider list rejects, as it would in an async function.
    return new Promise((resolve) => {
      const context = options?.context ?? this.#context;
      const call = this.#prepare(calls[0] as ToolCall, options?.signal, snapshotOf(context), options?.caller);
      call.context = context;
      call.resolveSingle = resolve;
      this.#start(call);
    });
  }

  async #executeBatch(calls: readonly ToolCall[], options: ExecuteOptions): Promise<CallResult[]> {
    if (!this.#loaded) await this.ready();
    const context = options.context ?? this.#context;
    const snapshot = snapshotOf(context);
    const prepared = calls.map((call) => this.#prepare(call, options.signal, snapshot, options.caller));
    const results: CallResult[] = new Array(calls.length);
    const groups = partition(
      prepared.map((_, i) => i),
      (i) => this.#isSafe(prepared[i] as Call),
    );
    for (const group of groups) {
      await Promise.all(
        group.map(async (i) => {
          results[i] = await this.#result(prepared[i] as Call);
        }),
      );
    }
    applyPatches(
      context,
      prepared.map((call) => call.patch),
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
    return this.#breakers.get(tool.name, provider, this.#pipelineOf(tool).policy.breaker).circuit.hold();
  }

  /**
   * Shares the result cache with other replicas: `link` hears every answer stored here; the returned link
   * stores theirs here.
   */
  shareCache(link: CacheLink): CacheLink {
    const { cache } = this.#pipelineDeps;
    cache.link(link);
    return { publish: (...answer) => cache.adopt(...answer) };
  }

  /** Resolves once every breaker change so far is persisted; call it before shutting down. */
  close(): Promise<void> {
    return this.#breakers.flush();
  }

  #prepare(
    request: ToolCall,
    signal: AbortSignal | undefined,
    snapshot: CallContext,
    caller: string | undefined,
  ): Call {
    return new Call(request, this.#deps.tools.get(request.name), signal, snapshot, caller ?? "");
  }

  /** The tool's pipeline, built on its definition's first call. */
  #pipelineOf(tool: Tool): ToolPipeline {
    return tool === this.#lastTool && this.#lastPipeline ? this.#lastPipeline : this.#lookUp(tool);
  }

  #lookUp(tool: Tool): ToolPipeline {
    let pipeline = this.#pipelines.get(tool);
    if (!pipeline) {
      const policy = resolvePolicy(tool, this.options);
      pipeline = buildPipeline(tool, policy, this.#deps.providers(tool), this.#pipelineDeps);
      this.#pipelines.set(tool, pipeline);
    }
    this.#lastTool = tool;
    this.#lastPipeline = pipeline;
    return pipeline;
  }

  /** Slots are per tool name and limit: a redefinition with another limit gets slots of its own. */
  #slotsFor(tool: string, limit: number): Semaphore {
    const key = `${tool}\u0000${limit}`;
    let slots = this.#slots.get(key);
    if (!slots) {
      slots = new Semaphore(limit);
      this.#slots.set(key, slots);
    }
    return slots;
  }

  #isSafe(call: Call): boolean {
    const tool = call.tool;
    if (!tool) return true; // fails before running anything
    const { providers, policy } = this.#pipelineOf(tool);
    const judge = providers[0]?.isConcurrencySafe;
    return judge ? judge.call(providers[0], call.args) : policy.concurrencySafe;
  }

  #result(call: Call): Promise<CallResult> {
    return new Promise((resolve) => {
      call.resolveInBatch = resolve;
      this.#start(call);
    });
  }

  /** Starts a call; its result goes to `#deliver`. */
  #start(call: Call): void {
    const running = this.#log.running(call.id);
    // The same tool_call_id never runs twice at once: the second caller gets the first's result. The patch
    // goes with the first caller only, so a context change is applied once.
    if (running) {
      this.#share(running, call);
      return;
    }
    call.started = performance.now();
    this.#log.begin(call, call.started);
    try {
      const tool = call.tool;
      if (!tool) {
        const message = this.#deps.unknownTool?.(call.name) ?? `unknown tool "${call.name}"`;
        this.emit("rejected", { callId: call.id, tool: call.name, class: "unknown_tool", message });
        this.#finish(call, "failed", { class: "unknown_tool", message });
        return;
      }
      if (call.signal?.aborted) {
        this.#cancelled(call);
        return;
      }
      this.#starting = call;
      this.#pipelineOf(tool).run(call).listen(this.#settle);
      this.#starting = undefined;
    } catch (error) {
      this.#finish(call, "failed", internal(error));
    }
  }

  /**
   * The closures of the rare cases are made in methods of their own: a closure in #start or #finish
   * would make V8 allocate a context for the variables it captures on every call.
   */
  #share(running: Running, call: Call): void {
    this.#log.share(running, (result) => deliver(call, result));
  }

  #endSoon(call: Call, result: CallResult): void {
    queueMicrotask(() => this.#log.end(call, result));
  }

  /** Emits the result; a listener that throws fails the call (and is not called again for it). */
  #announce(call: Call, result: CallResult): CallResult {
    try {
      this.emit("call", result);
      return result;
    } catch (fault) {
      const failed: CallResult = { ...result, status: "failed", error: internal(fault) };
      delete failed.output;
      call.patch = undefined;
      return failed;
    }
  }

  readonly #settle = (call: Call): void => {
    try {
      if (call.outcome === "answered") this.#finish(call, "completed", undefined, call.output);
      else this.#failed(call, call.failure);
    } catch (fault) {
      this.#finish(call, "failed", internal(fault));
    }
  };

  #failed(call: Call, failure: unknown): void {
    try {
      const cls = classify(failure, call.tool?.policy?.errors).class;
      if (cls === "cancelled" || call.signal?.aborted) {
        this.#cancelled(call);
        return;
      }
      const error: CallError = { class: cls, message: messageOf(failure) };
      if (failure instanceof SchemaError) error.issues = failure.issues;
      if (cls === "breaker_open")
        this.emit("rejected", {
          callId: call.id,
          tool: call.name,
          class: "breaker_open",
          message: error.message,
        });
      this.#finish(call, cls === "timeout" ? "timeout" : "failed", error);
    } catch (fault) {
      this.#finish(call, "failed", internal(fault));
    }
  }

  #cancelled(call: Call): void {
    this.#finish(call, "cancelled", { class: "cancelled", message: new CancelledError().message });
  }

  #finish(call: Call, status: CallStatus, error: CallError | undefined, output?: unknown): void {
    if (call.progress === "settled") return;
    call.progress = "settled";
    const totalMs = performance.now() - call.started;
    const { queuedMs } = call;
    const provenance = call.provenance();
    const timing: CallTiming = { queuedMs, runMs: Math.max(0, totalMs - queuedMs), totalMs };
    // One literal per shape, so a result never changes hidden class (nor grows a property store) after it
    // is made; the key order is the one results always had.
    let result: CallResult =
      output !== undefined
        ? error
          ? { id: call.id, name: call.name, status, provenance, timing, output, error }
          : { id: call.id, name: call.name, status, provenance, timing, output }
        : error
          ? { id: call.id, name: call.name, status, provenance, timing, error }
          : { id: call.id, name: call.name, status, provenance, timing };
    if (status !== "completed") call.patch = undefined;
    // Without a listener, emit would still gather its arguments.
    if (this.listenerCount("call") > 0) result = this.#announce(call, result);
    // A call finished while it was being started (unknown tool, bad arguments, a cache hit, an open
    // breaker) keeps its id for one more microtask, so a duplicate id later in the same batch still shares
    // its result.
    if (this.#starting === call) this.#endSoon(call, result);
    else this.#log.end(call, result);
    deliver(call, result);
  }
}

/** Hands the result to whoever waits for it. */
function deliver(call: Call, result: CallResult): void {
  const single = call.resolveSingle;
  if (single) {
    if (call.patch && call.context) applyPatches(call.context, [call.patch]);
    single([result]);
  } else call.resolveInBatch?.(result);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function internal(error: unknown): CallError {
  return { class: "unknown", message: `dispatcher error: ${messageOf(error)}` };
}

function checkCalls(calls: readonly ToolCall[]): void {
  if (!Array.isArray(calls)) throw new TypeError("execute(calls): calls must be an array");
  // The check every call passes is apart from the messages, so that it stays small and cheap.
  for (let i = 0; i < calls.length; i++) if (!isWellFormed(calls[i])) throw malformed(calls[i], i);
}

function isWellFormed(call: ToolCall | undefined): boolean {
  if (!call || typeof call !== "object") return false;
  const { id, name } = call;
  const args = call.arguments;
  return (
    typeof id === "string" &&
    id !== "" &&
    typeof name === "string" &&
    name !== "" &&
    (args === undefined || (args !== null && typeof args === "object" && !Array.isArray(args)))
  );
}

function malformed(call: ToolCall | undefined, i: number): TypeError {
  if (!call || typeof call !== "object")
    return new TypeError(`execute(calls): calls[${i}] must be an object`);
  if (typeof call.id !== "string" || call.id === "")
    return new TypeError(`execute(calls): calls[${i}].id must be a non-empty string`);
  if (typeof call.name !== "string" || call.name === "")
    return new TypeError(`execute(calls): calls[${i}].name must be a non-empty string`);
  return new TypeError(`execute(calls): calls[${i}].arguments must be an object`);
}
