// Stage: concurrency slots, the tool's own and then a global one (always in this order, so two calls
// never deadlock), held for one attempt: a call waiting for its next retry holds none, so backoff waits
// cannot fill the slots. A call that finds both free goes on at once, without a promise; one that waits
// longer than the queue timeout is the `queue_timeout` outcome. Waits queue under the caller's key, and
// the queues serve keys in turn (bulkhead.ts). A call's deadline (its whole run, retries included) starts
// when it first holds its slots.
import { performance } from "node:perf_hooks";
import type { Semaphore } from "../bulkhead.ts";
import type { Call } from "../call.ts";
import { DispatchError } from "../errors.ts";
import { Pending } from "../pending.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";

export interface SlotSettings {
  queueTimeoutMs: number;
  deadlineMs: number;
}

export class Slots implements Stage {
  readonly #tool: string;
  readonly #slots: Semaphore;
  readonly #global: Semaphore;
  readonly #settings: SlotSettings;
  readonly #queueTimedOut: (call: Call, message: string) => void;
  readonly #released = (call: Call): Call => {
    this.#global.release();
    this.#slots.release();
    return call;
  };

  constructor(
    tool: string,
    slots: Semaphore,
    global: Semaphore,
    settings: SlotSettings,
    queueTimedOut: (call: Call, message: string) => void,
  ) {
    this.#tool = tool;
    this.#slots = slots;
    this.#global = global;
    this.#settings = settings;
    this.#queueTimedOut = queueTimedOut;
  }

  execute(call: Call, next: Next): Pending {
    if (!this.#tryAcquire()) return this.#waitThenRun(call, next);
    // A call's first slots are taken in the turn it started, whose clock reading is reused.
    return this.#run(
      call,
      next,
      call.deadlineAt === Number.POSITIVE_INFINITY ? call.started : performance.now(),
    );
  }

  /** Both slots if both are free at once; none otherwise. */
  #tryAcquire(): boolean {
    if (!this.#slots.tryAcquire()) return false;
    if (this.#global.tryAcquire()) return true;
    this.#slots.release();
    return false;
  }

  #run(call: Call, next: Next, readyAt: number): Pending {
    call.progress = "running";
    call.readyAt = readyAt;
    if (call.deadlineAt === Number.POSITIVE_INFINITY) call.deadlineAt = readyAt + this.#settings.deadlineMs;
    return proceed(next, call).after(this.#released);
  }

  #waitThenRun(call: Call, next: Next): Pending {
    return Pending.from(this.#waitForSlots(call), call).after((waited) =>
      waited.outcome === "failed" ? waited : this.#run(waited, next, call.readyAt),
    );
  }

  /** Settles with the call once it holds its slots (outcome none) or gave up waiting (failed). */
  async #waitForSlots(call: Call): Promise<Call> {
    // A retry comes back here with its last attempt's failure: cleared, so that holding the slots (outcome
    // none) is told apart from giving up the wait (failed), and the slots are never taken and kept.
    call.outcome = "none";
    call.progress = "queued";
    const { queueTimeoutMs } = this.#settings;
    const queueStart = performance.now();
    try {
      await this.#slots.acquire(queueTimeoutMs, `tool ${this.#tool}`, call.signal, call.key);
      try {
        const left = queueTimeoutMs - (performance.now() - queueStart);
        await this.#global.acquire(Math.max(1, left), "all tools", call.signal, call.key);
      } catch (error) {
        this.#slots.release();
        throw error;
      }
    } catch (error) {
      call.queuedMs += performance.now() - queueStart;
      if (!(error instanceof DispatchError) || error.class !== "queue_timeout") return call.fail(error);
      const message = `waited ${queueTimeoutMs} ms for a free slot (${error.message}) and gave up`;
      this.#queueTimedOut(call, message);
      return call.fail(new DispatchError("queue_timeout", message));
    }
    call.readyAt = performance.now();
    call.queuedMs += call.readyAt - queueStart;
    return call;
  }
}
