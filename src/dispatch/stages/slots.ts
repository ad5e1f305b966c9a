// Stage: concurrency slots, the tool's own and then a global one (always in this order, so two calls
// never deadlock), held until the rest of the pipeline has answered. A call that finds both free goes on
// at once, without a promise; one that waits longer than the queue timeout is the `queue_timeout`
// outcome. A call's deadline (its whole run, retries included) starts when it holds its slots.
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
    return this.#tryAcquire() ? this.#run(call, next, call.started) : this.#waitThenRun(call, next);
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
    call.deadlineAt = readyAt + this.#settings.deadlineMs;
    return proceed(next, call).after(this.#released);
  }

  #waitThenRun(call: Call, next: Next): Pending {
    return Pending.from(this.#waitForSlots(call), call).after((waited) =>
      waited.outcome === "failed" ? waited : this.#run(waited, next, call.readyAt),
    );
  }

  /** Settles with the call once it holds its slots (outcome none) or gave up waiting (failed). */
  async #waitForSlots(call: Call): Promise<Call> {
    call.progress = "queued";
    const { queueTimeoutMs } = this.#settings;
    const queueStart = performance.now();
    try {
      await this.#slots.acquire(queueTimeoutMs, `tool ${this.#tool}`, call.signal);
      try {
        const left = queueTimeoutMs - (performance.now() - queueStart);
        await this.#global.acquire(Math.max(1, left), "all tools", call.signal);
      } catch (error) {
        this.#slots.release();
        throw error;
      }
    } catch (error) {
      call.queuedMs = performance.now() - queueStart;
      if (!(error instanceof DispatchError) || error.class !== "queue_timeout") return call.fail(error);
      const message = `waited ${queueTimeoutMs} ms for a free slot (${error.message}) and gave up`;
      this.#queueTimedOut(call, message);
      return call.fail(new DispatchError("queue_timeout", message));
    }
    call.readyAt = performance.now();
    call.queuedMs = call.readyAt - queueStart;
    return call;
  }
}
