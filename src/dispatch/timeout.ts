// One provider invocation with a deadline. The provider gets an AbortSignal that fires on the timeout or
// when the batch is cancelled; a provider that ignores it is raced, so a hanging tool cannot hang a call.
import { type Deadline, DeadlineTimer, type Expiring } from "./deadlines.ts";
import { CallTimeoutError } from "./errors.ts";
import type { CallContext, InvokeOptions, Provider } from "./types.ts";

const deadlines = new DeadlineTimer();

/** Where an attempt reports: exactly one of the two is called, once. */
export interface AttemptSink {
  answered(answer: unknown): void;
  failed(error: unknown): void;
}

/**
 * The options a provider gets, and the attempt's own state. The AbortController is made when the provider
 * first reads `signal`: providers that never look at it (pure in-process tools) do not pay for one on every
 * call. A class, not an object literal with a getter: V8 gives each such literal a fresh hidden class, and
 * in the bench that alone cost more than the rest of an attempt, mostly in garbage collection. Its state is
 * in `declare`d fields assigned in the constructor, not in private fields with initialisers: those cost a
 * call of the initialiser and a definition per field, 4× the plain object until V8 optimised the attempt
 * fully (measured in `npm run bench:dispatch`). A provider is typed to see `InvokeOptions` only.
 */
class Attempt implements InvokeOptions, Expiring {
  declare readonly callId: string;
  declare readonly context: CallContext;
  declare readonly sink: AttemptSink;
  declare readonly batchSignal: AbortSignal | undefined;
  declare controller: AbortController | undefined;
  declare abortedWith: unknown;
  declare settled: boolean;
  declare deadline: Deadline | undefined;
  declare timeoutMs: number;
  /** The batch cancellation listener, kept so that it can be removed again. */
  declare onCancel: (() => void) | undefined;

  constructor(callId: string, context: CallContext, sink: AttemptSink, batchSignal: AbortSignal | undefined) {
    this.callId = callId;
    this.context = context;
    this.sink = sink;
    this.batchSignal = batchSignal;
    this.controller = undefined;
    this.abortedWith = undefined;
    this.settled = false;
    this.deadline = undefined;
    this.timeoutMs = 0;
    this.onCancel = undefined;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith !== undefined) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  run(provider: Provider, args: Record<string, unknown>, timeoutMs: number, now: number | undefined): void {
    this.timeoutMs = timeoutMs;
    this.deadline = deadlines.add(timeoutMs, this, now);
    const batchSignal = this.batchSignal;
    if (batchSignal) {
      const onCancel = () => this.expire(batchSignal.reason);
      this.onCancel = onCancel;
      batchSignal.addEventListener("abort", onCancel, { once: true });
    }
    let running: Promise<unknown>;
    try {
      running = provider.invoke(args, this);
    } catch (error) {
      running = Promise.reject(error);
    }
    // One reaction on the provider's promise settles the attempt; nothing else is chained per call.
    Promise.resolve(running).then(
      (answer) => {
        if (this.settle()) this.sink.answered(answer);
      },
      (error) => {
        if (this.settle()) this.sink.failed(error);
      },
    );
  }

  /** The deadline passed (called by the shared deadline timer). */
  expired(): void {
    this.expire(new CallTimeoutError(this.timeoutMs));
  }

  expire(reason: unknown): void {
    if (!this.settle()) return;
    this.abortedWith = reason;
    this.controller?.abort(reason);
    this.sink.failed(reason);
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

/**
 * Runs the provider against the deadline and reports to `sink` without a promise of its own, so the
 * dispatcher's success path can finish a call in the provider promise's one reaction. `now`, if given, is
 * a `performance.now()` the caller read just before (see DeadlineTimer.add).
 */
export function invokeWithDeadline(
  provider: Provider,
  args: Record<string, unknown>,
  callId: string,
  context: CallContext,
  timeoutMs: number,
  batchSignal: AbortSignal | undefined,
  sink: AttemptSink,
  now?: number,
): void {
  if (batchSignal?.aborted) {
    sink.failed(batchSignal.reason);
    return;
  }
  new Attempt(callId, context, sink, batchSignal).run(provider, args, timeoutMs, now);
}

/**
 * The same as a promise; `accept` turns the provider's answer into the attempt's result (or throws to fail
 * it) in the same step, so checking an answer costs no promise layer of its own.
 */
export function invokeWithTimeout<T>(
  provider: Provider,
  args: Record<string, unknown>,
  callId: string,
  context: CallContext,
  timeoutMs: number,
  batchSignal: AbortSignal | undefined,
  accept: (answer: unknown) => T,
): Promise<T> {
  return new Promise((resolve, reject) =>
    invokeWithDeadline(provider, args, callId, context, timeoutMs, batchSignal, {
      answered(answer) {
        try {
          resolve(accept(answer));
        } catch (error) {
          reject(error);
        }
      },
      failed: reject,
    }),
  );
}
