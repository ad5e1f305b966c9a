// Stage: concurrency slots, the tool's own and then a global one (always in this order, so two calls
// never deadlock), held until the rest of the pipeline has answered. A call that finds both free goes on
// at once, without a promise; one that waits longer than the queue timeout is the `queue_timeout`
// outcome. A call's deadline (its whole run, retries included) starts when it holds its slots.
import { performance } from "node:perf_hooks";
import type { Semaphore } from "../bulkhead.ts";
import type { Call } from "../call.ts";
import { DispatchError } from "../errors.ts";
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
  // Made once per stage rather than per call: the release after an answer and after a failure.
  readonly #releasedWith = (output: unknown): unknown => {
    this.#release();
    return output;
  };
  readonly #releasedAfter = (error: unknown): never => {
    this.#release();
    throw error;
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

  execute(call: Call, next: Next): Promise<unknown> {
    if (this.#slots.tryAcquire()) {
      if (this.#global.tryAcquire()) return this.#run(call, next, call.started);
      this.#slots.release();
    }
    return this.#waitThenRun(call, next);
  }

  #run(call: Call, next: Next, readyAt: number): Promise<unknown> {
    call.progress = "running";
    call.deadlineAt = readyAt + this.#settings.deadlineMs;
    return proceed(next, call).then(this.#releasedWith, this.#releasedAfter);
  }

  async #waitThenRun(call: Call, next: Next): Promise<unknown> {
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
      if (!(error instanceof DispatchError) || error.class !== "queue_timeout") throw error;
      const message = `waited ${queueTimeoutMs} ms for a free slot (${error.message}) and gave up`;
      this.#queueTimedOut(call, message);
      throw new DispatchError("queue_timeout", message);
    }
    const readyAt = performance.now();
    call.queuedMs = readyAt - queueStart;
    return this.#run(call, next, readyAt);
  }

  #release(): void {
    this.#global.release();
    this.#slots.release();
  }
}
