// One call on its way through the pipeline: what it asks for, where it is (one tagged progress), and what
// its result will say about how it was served. Every stage reads and writes the same object; it is also
// the call's entry in the execution log, so logging costs no object of its own.
import type { Tool } from "../catalog/index.ts";
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

type Patch = Readonly<Record<string, unknown>>;
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
  declare progress: Progress;
  /** performance.now() when the call started, and the end of its whole run (set when it gets slots). */
  declare started: number;
  declare deadlineAt: number;
  declare queuedMs: number;
  /** The options the provider stage hands the provider for the attempt under way (timeout stage's). */
  declare attempt: InvokeOptions | undefined;
  /** Provider invocations so far, over all providers. */
  declare attempts: number;
  declare provider: string | undefined;
  declare stale: boolean;
  declare ageMs: number | undefined;
  declare warnings: string[] | undefined;
  /** Every breaker the call met; a breaker's own shared record while it met only one. */
  declare breakers: BreakerStates | undefined;
  declare breakersOwned: boolean;
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
    this.progress = "new";
    this.started = 0;
    this.deadlineAt = Number.POSITIVE_INFINITY;
    this.queuedMs = 0;
    this.attempt = undefined;
    this.attempts = 0;
    this.provider = undefined;
    this.stale = false;
    this.ageMs = undefined;
    this.warnings = undefined;
    this.breakers = undefined;
    this.breakersOwned = false;
    this.patch = undefined;
    this.resolveSingle = undefined;
    this.resolveInBatch = undefined;
    this.context = undefined;
  }

  warn(message: string): void {
    if (this.warnings) this.warnings.push(message);
    else this.warnings = [message];
  }

  /** Notes a breaker's state after an attempt through it. */
  met(record: BreakerStates): void {
    const breakers = this.breakers;
    if (breakers === undefined || breakers === record) this.breakers = record;
    else if (this.breakersOwned) Object.assign(breakers as Record<string, BreakerStateName>, record);
    else {
      this.breakers = { ...breakers, ...record };
      this.breakersOwned = true;
    }
  }

  provenance(): Provenance {
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
