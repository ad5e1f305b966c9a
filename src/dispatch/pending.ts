// A call's outcome on its way back out through the stages. Hand-written instead of a native Promise
// because a promise costs a microtask and an allocation per stage that reacts to it, and several stages
// react to every call (key limit, retry, slots, breaker): `npm run bench:dispatch` shows the difference.
// Here the one reaction to the provider's own promise runs every stage's handler in turn, synchronously,
// innermost first.
//
// How a call flows: the timeout stage makes the pending for the provider's attempt and settles it when
// the provider answers or the deadline passes (an outcome known at once is `Pending.of`, a native promise
// such as a slot wait `Pending.from`); each stage on the way out queues its reaction with
// `after(handler)`, and `settle` runs the queued handlers in order. A handler returns the call, or a
// new `Pending` for an asynchronous step (a retry's wait and next attempt), after which the remaining
// handlers run on that step's result. The dispatcher, last, waits with `listen` (or `promise()`).
//
// What must stay true: it only ever carries a Call and is never rejected: a failure is the call's
// `outcome`, and a handler that throws fails the call. Each pending has one consumer (the stage that
// called `next`), so `after` queues its handler on the same object and returns it rather than making a new
// one per stage. Handlers queued while an asynchronous step runs still run. `after` stays small enough for
// V8 to inline; measure with `npm run bench:dispatch` after any change.
import type { Call } from "./call.ts";

export type Handler = (call: Call) => Call | Pending;

export class Pending {
  declare settled: boolean;
  declare call: Call | undefined;
  /**
   * Handlers queued by `after`, run in order when the call's outcome is known: the first four in fields
   * (a read-only call passes four stages that react to it: the key's share, retry, slots, breaker; an
   * array grown per call cost an allocation of its backing store), any more in `rest`.
   */
  declare count: number;
  declare h0: Handler | undefined;
  declare h1: Handler | undefined;
  declare h2: Handler | undefined;
  declare h3: Handler | undefined;
  declare rest: Handler[] | undefined;
  /**
   * Who waits for the final call (the dispatcher, a pending flattened into another, `promise()`): the
   * first in a field of its own, any more in `listeners`.
   */
  declare listener: ((call: Call) => void) | undefined;
  declare listeners: ((call: Call) => void)[] | undefined;

  constructor() {
    this.settled = false;
    this.call = undefined;
    this.count = 0;
    this.h0 = undefined;
    this.h1 = undefined;
    this.h2 = undefined;
    this.h3 = undefined;
    this.rest = undefined;
    this.listener = undefined;
    this.listeners = undefined;
  }

  /** A call whose outcome is already known. */
  static of(call: Call): Pending {
    const pending = new Pending();
    pending.settled = true;
    pending.call = call;
    return pending;
  }

  /** A native promise (a wait for a slot, a retry's sleep); a rejection fails `call`. */
  static from(promise: Promise<Call>, call: Call): Pending {
    const pending = new Pending();
    promise.then(
      (settled) => pending.settle(settled),
      (error: unknown) => pending.settle(call.fail(error)),
    );
    return pending;
  }

  /**
   * `handler` runs once the outcome before it is known (at once if it is); returns the pending to consume.
   * Every stage that reacts to a call calls this, so it is kept small enough for V8's mid tier (Maglev)
   * to inline it; the rarer cases are methods of their own.
   */
  after(handler: Handler): Pending {
    if (this.settled) return runNow(this, handler);
    const index = this.count;
    this.count = index + 1;
    if (index === 0) this.h0 = handler;
    else if (index === 1) this.h1 = handler;
    else if (index === 2) this.h2 = handler;
    else if (index === 3) this.h3 = handler;
    else queueRest(this, handler);
    return this;
  }

  /** A native promise of the call, for code that awaits. */
  promise(): Promise<Call> {
    return new Promise((resolve) => this.listen(resolve));
  }

  settle(call: Call): void {
    if (!this.settled) this.#drain(call, 0);
  }

  #handler(index: number): Handler {
    switch (index) {
      case 0:
        return this.h0 as Handler;
      case 1:
        return this.h1 as Handler;
      case 2:
        return this.h2 as Handler;
      case 3:
        return this.h3 as Handler;
      default:
        return (this.rest as Handler[])[index - 4] as Handler;
    }
  }

  #drain(call: Call, from: number): void {
    let current = call;
    // `count` is read on every turn: a handler queued while an asynchronous step ran is run too.
    for (let i = from; i < this.count; i++) {
      const result = run(this.#handler(i), current);
      // A handler that hands back the call it was given (nearly every one) is spared the `instanceof`.
      if (result !== current && result instanceof Pending) {
        this.#drainAfter(result, i + 1);
        return;
      }
      current = result;
    }
    this.settled = true;
    this.call = current;
    const first = this.listener;
    if (!first) return;
    this.listener = undefined;
    first(current);
    if (this.listeners) this.#tellTheOthers(current);
  }

  #tellTheOthers(call: Call): void {
    const listeners = this.listeners as ((call: Call) => void)[];
    this.listeners = undefined;
    for (const listener of listeners) listener(call);
  }

  /**
   * An asynchronous step (a retry): the handlers from `next` on run once it has settled. A method of its
   * own because a closure in #drain's loop would capture the loop variable, and V8 would then allocate a
   * context for it on every turn of the loop, step or not.
   */
  #drainAfter(step: Pending, next: number): void {
    step.listen((settled) => this.#drain(settled, next));
  }

  /** `listener` gets the final call, once every handler has run (at once if it is settled). */
  listen(listener: (call: Call) => void): void {
    if (this.settled) listener(this.call as Call);
    else if (!this.listener) this.listener = listener;
    else if (this.listeners) this.listeners.push(listener);
    else this.listeners = [listener];
  }
}

function queueRest(pending: Pending, handler: Handler): void {
  if (pending.rest) pending.rest.push(handler);
  else pending.rest = [handler];
}

/** `after` on a settled pending: the handler runs at once. */
function runNow(pending: Pending, handler: Handler): Pending {
  const result = run(handler, pending.call as Call);
  if (result instanceof Pending) return result;
  pending.call = result;
  return pending;
}

function run(handler: Handler, call: Call): Call | Pending {
  try {
    return handler(call);
  } catch (error) {
    return call.fail(error);
  }
}
