// Stage: one attempt's deadline, the tool's timeoutMs or what is left of the call's deadline, whichever
// ends first. The provider gets an AbortSignal that fires on the deadline or when the batch is cancelled;
// a provider that ignores it is raced, so a hanging tool cannot hang a call.
import { performance } from "node:perf_hooks";
import type { AttemptSink, Call } from "../call.ts";
import { type Deadline, DeadlineTimer, type Expiring } from "../deadlines.ts";
import { CallTimeoutError } from "../errors.ts";
import { Pending } from "../pending.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";
import type { CallContext, InvokeOptions } from "../types.ts";

const deadlines = new DeadlineTimer();

/**
 * The options a provider gets, and the attempt's own state. The AbortController is made when the provider
 * first reads `signal`: providers that never look at it (pure in-process tools) do not pay for one on every
 * call. A class, not an object literal with a getter: V8 gives each such literal a fresh hidden class, and
 * in the bench that alone cost more than the rest of an attempt. Fields are `declare`d and assigned in the
 * constructor, not private fields with initialisers, which cost several times as much until V8 optimised
 * the attempt fully (`npm run bench:dispatch` shows it). A provider is typed to see `InvokeOptions` only.
 */
class Attempt implements InvokeOptions, Expiring, AttemptSink {
  declare readonly callId: string;
  declare readonly context: CallContext;
  declare readonly call: Call;
  declare readonly batchSignal: AbortSignal | undefined;
  declare pending: Pending | undefined;
  declare accept: ((call: Call, raw: unknown) => void) | undefined;
  declare controller: AbortController | undefined;
  declare abortedWith: unknown;
  declare settled: boolean;
  declare deadline: Deadline | undefined;
  declare timeoutMs: number;
  /** The batch cancellation listener, kept so that it can be removed again. */
  declare onCancel: (() => void) | undefined;

  /** `timeoutMs` is the tool's; the attempt gets less when less is left of the call's deadline. */
  constructor(call: Call, timeoutMs: number, now: number) {
    const left = call.deadlineAt - now;
    this.callId = call.id;
    this.context = call.snapshot;
    this.call = call;
    this.batchSignal = call.signal;
    this.pending = undefined;
    this.accept = undefined;
    this.controller = undefined;
    this.abortedWith = undefined;
    this.settled = false;
    this.timeoutMs = left < timeoutMs ? Math.floor(left) : timeoutMs;
    this.deadline = deadlines.add(this.timeoutMs, this, now);
    this.onCancel = undefined;
    if (call.signal) this.#cancelWith(call.signal);
  }

  #cancelWith(batchSignal: AbortSignal): void {
    const onCancel = () => this.expire(batchSignal.reason);
    this.onCancel = onCancel;
    batchSignal.addEventListener("abort", onCancel, { once: true });
  }

  get options(): InvokeOptions {
    return this;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  race(running: Promise<unknown>, accept: (call: Call, raw: unknown) => void): Pending {
    this.accept = accept;
    // The one reaction to the provider's promise settles the attempt, and with it every stage's handler.
    const pending = new Pending();
    this.pending = pending;
    running.then(
      (raw) => this.answered(raw),
      (error: unknown) => this.failed(error),
    );
    // A cancellation while the provider was being invoked settled the attempt before the race began.
    if (this.settled) pending.settle(this.call);
    return pending;
  }

  answered(raw: unknown): void {
    if (!this.settle()) return;
    const call = this.call;
    try {
      (this.accept as (call: Call, raw: unknown) => void)(call, raw);
    } catch (error) {
      call.fail(error);
    }
    this.pending?.settle(call);
  }

  failed(error: unknown): void {
    if (this.settle()) this.pending?.settle(this.call.fail(error));
  }

  /** The deadline passed (called by the shared deadline timer). */
  expired(): void {
    this.expire(new CallTimeoutError(this.timeoutMs));
  }

  expire(reason: unknown): void {
    if (!this.settle()) return;
    this.abortedWith = reason;
    this.controller?.abort(reason);
    this.pending?.settle(this.call.fail(reason));
  }

  /** True for the first settlement only; stops the deadline and the cancellation listener. */
  settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.deadline?.cancel();
    if (this.onCancel) this.batchSignal?.removeEventListener("abort", this.onCancel);
    return true;
  }
}

/** The first attempt starts in the same turn the call got its slots, whose clock reading it reuses. */
function startOf(call: Call): number {
  return call.attempts === 0 ? call.readyAt : performance.now();
}

/** An attempt that may not start: its batch was cancelled, or the call's deadline has passed. */
function notStarted(call: Call): Pending {
  if (call.signal?.aborted) return Pending.of(call.fail(call.signal.reason));
  return Pending.of(call.fail(new CallTimeoutError(0, "the call's deadline passed before this attempt")));
}

/** The attempt's deadline starts here; the provider stage after it races the provider against it. */
export class Timeout implements Stage {
  readonly #timeoutMs: number;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  execute(call: Call, next: Next): Pending {
    const now = startOf(call);
    if (call.deadlineAt - now < 1 || call.signal?.aborted) return notStarted(call);
    call.attempt = new Attempt(call, this.#timeoutMs, now);
    return proceed(next, call);
  }
}
