// Stage: the caller's share of the dispatcher. A key may have `perKeyCalls` calls under way at once (in
// flight, queued for slots, or waiting for a retry); a call over that fails at once as `key_limit`, with
// nothing run, so one key cannot queue without bound in front of the others.
import type { Call } from "../call.ts";
import { DispatchError } from "../errors.ts";
import type { KeyCalls } from "../key-calls.ts";
import { Pending } from "../pending.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";

export class KeyLimit implements Stage {
  readonly #calls: KeyCalls;
  readonly #limited: (call: Call, message: string) => void;
  readonly #left = (call: Call): Call => {
    this.#calls.leave(call.key);
    return call;
  };

  constructor(calls: KeyCalls, limited: (call: Call, message: string) => void) {
    this.#calls = calls;
    this.#limited = limited;
  }

  execute(call: Call, next: Next): Pending {
    if (!this.#calls.enter(call.key)) return this.#refused(call);
    return proceed(next, call).after(this.#left);
  }

  #refused(call: Call): Pending {
    const message = `this key already has ${this.#calls.limit} calls in flight or queued (the per-key limit, perKeyCalls); send this call again when some have finished`;
    this.#limited(call, message);
    return Pending.of(call.fail(new DispatchError("key_limit", message)));
  }
}
