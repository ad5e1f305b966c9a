// A call's outcome on its way back out through the stages. Hand-written instead of a native Promise
// because a promise costs a microtask and an allocation per stage that reacts to it, and the stages that
// react to every call (breaker, retry, slots) made the pipeline ~1.6× the cost of the hand-composed one
// it replaced (measured in `npm run bench:dispatch`). Here the one reaction to the provider's own promise
// runs every stage's handler in turn, synchronously, innermost first. It only ever carries a Call, which
// is never rejected: a failure is the call's `outcome`, and a handler that throws fails the call.
import type { Call } from "./call.ts";

export type Handler = (call: Call) => Call | Pending;

export class Pending {
  declare settled: boolean;
  declare call: Call | undefined;
  /** For a pending made by `then`: what to run when its source settles; cleared once run. */
  declare handler: Handler | undefined;
  declare first: Pending | undefined;
  declare more: Pending[] | undefined;

  constructor(handler: Handler | undefined) {
    this.settled = false;
    this.call = undefined;
    this.handler = handler;
    this.first = undefined;
    this.more = undefined;
  }

  /** A call whose outcome is already known. */
  static of(call: Call): Pending {
    const pending = new Pending(undefined);
    pending.settled = true;
    pending.call = call;
    return pending;
  }

  /** A native promise (a wait for a slot, a retry's sleep); a rejection fails `call`. */
  static from(promise: Promise<Call>, call: Call): Pending {
    const pending = new Pending(undefined);
    promise.then(
      (settled) => pending.settle(settled),
      (error: unknown) => pending.settle(call.fail(error)),
    );
    return pending;
  }

  /** `handler` runs when this settles (at once if it has); the pending returned settles with its result. */
  then(handler: Handler): Pending {
    const derived = new Pending(handler);
    this.listen(derived);
    return derived;
  }

  /** A native promise of the call, for code that awaits. */
  promise(): Promise<Call> {
    return new Promise((resolve) =>
      this.listen(
        new Pending((call) => {
          resolve(call);
          return call;
        }),
      ),
    );
  }

  settle(call: Call): void {
    if (this.settled) return;
    this.settled = true;
    this.call = call;
    const first = this.first;
    if (!first) return;
    this.first = undefined;
    first.receive(call);
    const more = this.more;
    if (!more) return;
    this.more = undefined;
    for (const listener of more) listener.receive(call);
  }

  listen(listener: Pending): void {
    if (this.settled) listener.receive(this.call as Call);
    else if (!this.first) this.first = listener;
    else (this.more ??= []).push(listener);
  }

  /** The source settled: runs the handler and settles with its result (once a pending result settles). */
  receive(call: Call): void {
    const handler = this.handler;
    if (!handler) {
      this.settle(call);
      return;
    }
    this.handler = undefined;
    let result: Call | Pending;
    try {
      result = handler(call);
    } catch (error) {
      result = call.fail(error);
    }
    if (result instanceof Pending) result.listen(this);
    else this.settle(result);
  }
}
