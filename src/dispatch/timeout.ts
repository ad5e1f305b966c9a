// One provider invocation with a deadline. The provider gets an AbortSignal that fires on the timeout or
// when the batch is cancelled; a provider that ignores it is raced, so a hanging tool cannot hang a call.
import { DeadlineTimer } from "./deadlines.ts";
import { CallTimeoutError } from "./errors.ts";
import type { CallContext, InvokeOptions, Provider } from "./types.ts";

const deadlines = new DeadlineTimer();

/**
 * The options a provider gets. The AbortController is made when the provider first reads `signal`:
 * providers that never look at it (pure in-process tools) do not pay for one on every call. A class, not
 * an object literal with a getter: V8 gives each such literal a fresh hidden class, and in the bench that
 * alone cost more than the rest of an attempt, mostly in garbage collection.
 */
class AttemptOptions implements InvokeOptions {
  readonly callId: string;
  readonly context: CallContext;
  #controller: AbortController | undefined;
  #abortedWith: unknown;

  constructor(callId: string, context: CallContext) {
    this.callId = callId;
    this.context = context;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortedWith !== undefined) this.#controller.abort(this.#abortedWith);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    this.#abortedWith = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * Runs the provider against the deadline; `accept` turns its answer into the attempt's result (or throws
 * to fail it) in the same step, so checking an answer costs no promise layer of its own.
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
  if (batchSignal?.aborted) return Promise.reject(batchSignal.reason);
  const options = new AttemptOptions(callId, context);
  return new Promise((resolve, reject) => {
    const finish = () => {
      deadline.cancel();
      batchSignal?.removeEventListener("abort", onCancel);
    };
    const onCancel = () => {
      finish();
      options.abort(batchSignal?.reason);
      reject(batchSignal?.reason);
    };
    const deadline = deadlines.add(timeoutMs, () => {
      finish();
      const error = new CallTimeoutError(timeoutMs);
      options.abort(error);
      reject(error);
    });
    batchSignal?.addEventListener("abort", onCancel, { once: true });
    let running: Promise<unknown>;
    try {
      running = provider.invoke(args, options);
    } catch (error) {
      running = Promise.reject(error);
    }
    Promise.resolve(running).then(
      (answer) => {
        finish();
        try {
          resolve(accept(answer));
        } catch (error) {
          reject(error);
        }
      },
      (error) => {
        finish();
        reject(error);
      },
    );
  });
}
