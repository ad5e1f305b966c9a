// One call on its way through the pipeline: what it asks for, where it is (one tagged progress), and what
// its result will say about how it was served. Every stage reads and writes the same object; it is also
// the call's entry in the execution log, so logging costs no object of its own.
import type { Tool } from "../catalog/index.ts";
import type { ProviderBreaker } from "./breaker.ts";
import type { Pending } from "./pending.ts";
import type { Running } from "./state.ts";
import type {
  BreakerStateName,
  CallContext,
  CallResult,
  InvokeOptions,
  Provenance,
  ToolCall,
} from "./types.ts";

/**
 * Where a call is: `new` until a stage makes it wait or run, `queued` while it waits for a slot,
 * `running` while it holds its slots, `settled` once its result is made (nothing may make another).
 */
export type Progress = "new" | "queued" | "running" | "settled";

/** What the stages after one have made of the call: nothing yet, an output, or a failure. */
export type Outcome = "none" | "answered" | "failed";

type Patch = Readonly<Record<string, unknown>>;

/**
 * An attempt as the provider stage sees it: the options to invoke the provider with, and where its
 * answer goes (the timeout stage's race against the attempt's deadline).
 */
export interface AttemptSink {
  readonly options: InvokeOptions;
  /** Races the provider's promise against the attempt's deadline; settles with the call when decided. */
  race(running: Promise<unknown>, accept: (call: Call, raw: unknown) => void): Pending;
}
type BreakerStates = Readonly<Record<string, BreakerStateName>>;

/**
 * Fields are `declare`d and assigned in the constructor: under type stripping a typed field declaration
 * is still a class field, defined by an initialiser on every construction, which cost more per call than
 * the rest of making this object until V8 optimised it fully (measured in `npm run bench:dispatch`).
 */
export class Call implements Running {
  declare readonly id: string;
  declare readonly name: string;
  declare startedAt: number;
  declare finished: boolean;
  declare waiters: ((result: CallResult) => void)[] | undefined;
  declare readonly request: ToolCall;
  declare readonly args: Record<string, unknown>;
  declare readonly tool: Tool | undefined;
  declare readonly signal: AbortSignal | undefined;
  declare readonly snapshot: CallContext;
  /** Who calls: the key its slots are queued and its retries budgeted under. */
  declare readonly key: string;
  declare progress: Progress;
  /** performance.now() when the call started, and the end of its whole run (set when it gets slots). */
  declare started: number;
  declare deadlineAt: number;
  /** performance.now() when the call got its slots. */
  declare readyAt: number;
  declare queuedMs: number;
  declare outcome: Outcome;
  declare output: unknown;
  declare failure: unknown;
  /** The attempt under way: the timeout stage's, which the provider stage invokes with and answers. */
  declare attempt: AttemptSink | undefined;
  /** The breaker admission of the attempt under way (attempts of one call never overlap). */
  declare admission: number;
  /** The call's key in the result cache, when its tool has one. */
  declare cacheKey: string | undefined;
  /** Provider invocations so far, over all providers. */
  declare attempts: number;
  declare provider: string | undefined;
  declare stale: boolean;
  declare ageMs: number | undefined;
  declare warnings: string[] | undefined;
  /** Every breaker the call met; a breaker's own shared record while it met only one. */
  declare breakers: BreakerStates | undefined;
  declare breakersOwned: boolean;
  /** The breaker of the last attempt. */
  declare lastBreaker: ProviderBreaker | undefined;
  /** The context patch of the answer served; applied after the batch. */
  declare patch: Patch | undefined;
  /** Whom the result goes to: a single call's caller (as `[result]`), or a batch's slot. */
  declare resolveSingle: ((results: CallResult[]) => void) | undefined;
  declare resolveInBatch: ((result: CallResult) => void) | undefined;
  /** A single call's context, which its patch changes once it has finished. */
  declare context: Record<string, unknown> | undefined;

  constructor(
    request: ToolCall,
    tool: Tool | undefined,
    signal: AbortSignal | undefined,
    snapshot: CallContext,
    key: string,
  ) {
    this.id = request.id;
    this.name = request.name;
    this.startedAt = 0;
    this.finished = false;
    this.waiters = undefined;
    this.request = request;
    this.args = request.arguments ?? {};
    this.tool = tool;
    this.signal = signal;
    this.snapshot = snapshot;
    this.key = key;
    this.progress = "new";
    this.started = 0;
    this.deadlineAt = Number.POSITIVE_INFINITY;
    this.readyAt = 0;
    this.queuedMs = 0;
    this.outcome = "none";
    this.output = undefined;
    this.failure = undefined;
    this.attempt = undefined;
    this.admission = 0;
    this.cacheKey = undefined;
    this.attempts = 0;
    this.provider = undefined;
    this.stale = false;
    this.ageMs = undefined;
    this.warnings = undefined;
    this.breakers = undefined;
    this.breakersOwned = false;
    this.lastBreaker = undefined;
    this.patch = undefined;
    this.resolveSingle = undefined;
    this.resolveInBatch = undefined;
    this.context = undefined;
  }

  answer(output: unknown): Call {
    this.outcome = "answered";
    this.output = output;
    this.failure = undefined;
    return this;
  }

  fail(error: unknown): Call {
    this.outcome = "failed";
    this.failure = error;
    this.output = undefined;
    return this;
  }

  warn(message: string): void {
    if (this.warnings) this.warnings.push(message);
    else this.warnings = [message];
  }

  /** Notes a breaker's state after an attempt through it. */
  met(breaker: ProviderBreaker): void {
    this.lastBreaker = breaker;
    const record = breaker.record();
    const breakers = this.breakers;
    if (breakers === undefined || breakers === record) this.breakers = record;
    else if (this.breakersOwned) Object.assign(breakers as Record<string, BreakerStateName>, record);
    else {
      this.breakers = { ...breakers, ...record };
      this.breakersOwned = true;
    }
  }

  /** Small enough for V8's mid tier (Maglev) to inline: a result of its own is made in `#madeProvenance`. */
  provenance(): Provenance {
    const breaker = this.lastBreaker;
    if (
      breaker !== undefined &&
      this.attempts === 1 &&
      !this.breakersOwned &&
      !this.stale &&
      this.ageMs === undefined &&
      this.warnings === undefined &&
      this.provider === breaker.provider
    )
      return breaker.firstTry();
    return this.#madeProvenance();
  }

  #madeProvenance(): Provenance {
    const provenance: Provenance = {
      attempts: this.attempts,
      stale: this.stale,
      breakers: this.breakers ?? {},
    };
    if (this.provider !== undefined) provenance.provider = this.provider;
    if (this.ageMs !== undefined) provenance.ageMs = this.ageMs;
    if (this.warnings) provenance.warnings = this.warnings;
    return provenance;
  }
}
