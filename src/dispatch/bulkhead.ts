// A counting semaphore with a bounded wait whose queue is fair between keys (callers): waiters queue per
// key, and a freed slot goes to the keys in turn (round robin), so one key's flood of calls delays another
// key's call by at most one slot per key that is waiting, never by the flood's length. Hand-written because
// cockatiel's bulkhead rejects at once when its queue is full and has no wait timeout, and p-limit/p-queue
// are not installed, time tasks rather than the wait for a slot, and have no fairness between callers.
import { CancelledError, DispatchError } from "./errors.ts";

interface Waiter {
  key: string;
  resolve(): void;
  reject(error: Error): void;
}

export class Semaphore {
  readonly limit: number;
  #inFlight = 0;
  #queued = 0;
  /** Waiters by key; the Map's order is the turn order (a key just served moves to the back). */
  #waiters = new Map<string, Waiter[]>();

  constructor(limit: number) {
    this.limit = limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queued;
  }

  /** Takes a slot if one is free without waiting (the common case, kept free of promises). */
  tryAcquire(): boolean {
    if (this.#inFlight >= this.limit || this.#queued > 0) return false;
    this.#inFlight++;
    return true;
  }

  /**
   * Resolves when a slot is held; rejects with a queue_timeout error after `timeoutMs`, or on abort.
   * `key` is whose turn the wait is queued under.
   */
  acquire(timeoutMs: number, what: string, signal?: AbortSignal, key = ""): Promise<void> {
    if (this.#inFlight < this.limit && this.#queued === 0) {
      this.#inFlight++;
      return Promise.resolve();
    }
    if (signal?.aborted) return Promise.reject(new CancelledError());
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#remove(waiter);
      };
      const onAbort = () => {
        leave();
        reject(new CancelledError());
      };
      const timer = setTimeout(() => {
        leave();
        reject(new DispatchError("queue_timeout", `${what}: ${this.limit} at once`));
      }, timeoutMs);
      const waiter: Waiter = {
        key,
        resolve: () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const line = this.#waiters.get(key);
      if (line) line.push(waiter);
      else this.#waiters.set(key, [waiter]);
      this.#queued++;
    });
  }

  release(): void {
    // Nobody waiting (nearly always): no look at the queues, which showed in profiles of the bench.
    if (this.#queued === 0) {
      this.#inFlight--;
      return;
    }
    const next = this.#nextInTurn();
    // The slot passes straight to the next waiter, so the count never dips and lets a newcomer overtake.
    if (next) next.resolve();
    else this.#inFlight--;
  }

  /** The first waiter of the key whose turn it is; that key goes to the back of the turn order. */
  #nextInTurn(): Waiter | undefined {
    const first = this.#waiters.entries().next();
    if (first.done) return undefined;
    const [key, line] = first.value;
    const waiter = line.shift();
    this.#waiters.delete(key);
    if (line.length > 0) this.#waiters.set(key, line);
    this.#queued--;
    return waiter;
  }

  #remove(waiter: Waiter): void {
    const line = this.#waiters.get(waiter.key);
    const index = line?.indexOf(waiter) ?? -1;
    if (!line || index < 0) return;
    line.splice(index, 1);
    this.#queued--;
    if (line.length === 0) this.#waiters.delete(waiter.key);
  }
}
