// One provider invocation with a deadline. The provider gets an AbortSignal that fires on the timeout or
// when the batch is cancelled; a provider that ignores it is raced, so a hanging tool cannot hang a call.
import { CallTimeoutError } from "./errors.ts";
import type { CallContext, InvokeOptions, Provider } from "./types.ts";

export function invokeWithTimeout(
  provider: Provider,
  args: Record<string, unknown>,
  callId: string,
  context: CallContext,
  timeoutMs: number,
  batchSignal: AbortSignal | undefined,
): Promise<unknown> {
  if (batchSignal?.aborted) return Promise.reject(batchSignal.reason);
  // The AbortController is made when the provider first reads `signal`: providers that never look at it
  // (pure in-process tools) do not pay for one on every call.
  let controller: AbortController | undefined;
  let abortedWith: unknown;
  const options: InvokeOptions = {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (abortedWith !== undefined) controller.abort(abortedWith);
      }
      return controller.signal;
    },
    callId,
    context,
  };
  const abort = (reason: unknown) => {
    abortedWith = reason;
    controller?.abort(reason);
  };
  return new Promise((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      batchSignal?.removeEventListener("abort", onCancel);
    };
    const onCancel = () => {
      finish();
      abort(batchSignal?.reason);
      reject(batchSignal?.reason);
    };
    const timer = setTimeout(() => {
      finish();
      const error = new CallTimeoutError(timeoutMs);
      abort(error);
      reject(error);
    }, timeoutMs);
    batchSignal?.addEventListener("abort", onCancel, { once: true });
    let running: Promise<unknown>;
    try {
      running = provider.invoke(args, options);
    } catch (error) {
      running = Promise.reject(error);
    }
    Promise.resolve(running).then(
      (value) => {
        finish();
        resolve(value);
      },
      (error) => {
        finish();
        reject(error);
      },
    );
  });
}
