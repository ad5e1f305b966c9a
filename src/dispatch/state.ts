// Execution state: each call is in_progress until it is completed, failed, timeout or cancelled. A
// tool_call_id that is already running is not run again (the second caller shares the first's outcome);
// in-progress entries older than the stale limit are dropped; the last N finished executions are kept.
import type { CallResult, CallStatus, CallTiming, ErrorClass } from "./types.ts";

export interface ExecutionRecord {
  id: string;
  name: string;
  status: "in_progress" | CallStatus;
  startedAt: number;
  finishedAt?: number;
  timing?: CallTiming;
  provider?: string;
  attempts?: number;
  errorClass?: ErrorClass;
}

export interface ExecutionStatistics {
  finished: number;
  inProgress: number;
  byStatus: Record<CallStatus, number>;
  p50TotalMs: number;
  p95TotalMs: number;
}

/**
 * A call in progress. A second caller with the same id waits through `share`: a listener list made only
 * when someone waits, rather than a promise on every call's path.
 */
export class Running {
  readonly id: string;
  readonly name: string;
  readonly startedAt: number;
  #waiters: ((result: CallResult) => void)[] | undefined;

  constructor(id: string, name: string, startedAt: number) {
    this.id = id;
    this.name = name;
    this.startedAt = startedAt;
  }

  /** Calls `waiter` with the call's result once it is finished. */
  share(waiter: (result: CallResult) => void): void {
    if (this.#waiters) this.#waiters.push(waiter);
    else this.#waiters = [waiter];
  }

  notify(result: CallResult): void {
    const waiters = this.#waiters;
    this.#waiters = undefined;
    if (waiters) for (const waiter of waiters) waiter(result);
  }

  record(): ExecutionRecord {
    return { id: this.id, name: this.name, status: "in_progress", startedAt: this.startedAt };
  }
}

/**
 * One place in the history ring, overwritten in place by each finished call. Measured in
 * `npm run bench:dispatch`: keeping each call's own record object in the ring made V8 promote megabytes
 * per young-generation collection (the ring is old, its records young), and collection took a quarter of
 * a call's time; copying a few fields into long-lived slots allocates nothing.
 */
class Slot {
  id = "";
  name = "";
  status: CallStatus = "completed";
  startedAt = 0;
  finishedAt = 0;
  /** False for a call swept as stale, which has no timing. */
  timed = false;
  queuedMs = 0;
  runMs = 0;
  totalMs = 0;
  attempts: number | undefined = undefined;
  provider: string | undefined = undefined;
  errorClass: ErrorClass | undefined = undefined;

  /** The record as `executions()` shows it: a fresh object with only the fields that are known. */
  record(): ExecutionRecord {
    const record: ExecutionRecord = {
      id: this.id,
      name: this.name,
      status: this.status,
      startedAt: this.startedAt,
      finishedAt: this.finishedAt,
    };
    if (this.timed) record.timing = { queuedMs: this.queuedMs, runMs: this.runMs, totalMs: this.totalMs };
    if (this.attempts !== undefined) record.attempts = this.attempts;
    if (this.provider !== undefined) record.provider = this.provider;
    if (this.errorClass !== undefined) record.errorClass = this.errorClass;
    return record;
  }
}

/**
 * Calls in progress by id. Not a Map, measured in `npm run bench:dispatch`: a Map that gains and loses one
 * key per call rehashes every few calls, and V8 links each obsolete table to its successor (for live
 * iterators), so once one table was promoted every later one was dragged along: most of a call's garbage
 * collection. A null-prototype object is a plain dictionary (no prototype keys, `__proto__` is an ordinary
 * key) whose shrinking leaves no such links.
 */
class RunningIndex {
  readonly #byId: Record<string, Running> = Object.create(null);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: string): Running | undefined {
    return this.#byId[id];
  }

  set(entry: Running): void {
    if (!(entry.id in this.#byId)) this.#size++;
    this.#byId[entry.id] = entry;
  }

  delete(id: string): void {
    if (!(id in this.#byId)) return;
    this.#size--;
    delete this.#byId[id];
  }

  /** Oldest first (a dictionary's own order puts numeric ids first). */
  entries(): Running[] {
    return Object.values(this.#byId).sort((a, b) => a.startedAt - b.startedAt);
  }
}

export class ExecutionLog {
  readonly #running = new RunningIndex();
  /** Ring buffer of finished executions, oldest overwritten first; #next is where the next one goes. */
  readonly #history: Slot[] = [];
  #next = 0;
  #lastSweep = 0;
  readonly #size: number;
  readonly #staleMs: number;
  readonly #now: () => number;

  constructor(size: number, staleMs: number, now: () => number) {
    this.#size = size;
    this.#staleMs = staleMs;
    this.#now = now;
  }

  /** The call with this id that is running now, if any. */
  running(id: string): Running | undefined {
    const entry = this.#running.get(id);
    if (!entry) return undefined;
    // A stale entry does not hold the id: sweep it, and the call runs again.
    if (this.#now() - entry.startedAt >= this.#staleMs) this.sweep(true);
    return this.#running.get(id);
  }

  /** Marks a call as running; the dispatcher calls `end` with its result. */
  begin(id: string, name: string): Running {
    const startedAt = this.#now();
    this.sweep(false, startedAt);
    const entry = new Running(id, name, startedAt);
    this.#running.set(entry);
    return entry;
  }

  /** Records the result and hands it to callers that shared the id. */
  end(entry: Running, result: CallResult): void {
    entry.notify(result);
    // An entry swept as stale has already been recorded; a late finish does not record it twice.
    if (this.#running.get(entry.id) !== entry) return;
    this.#running.delete(entry.id);
    const slot = this.#slot(entry);
    if (!slot) return;
    const { timing, provenance } = result;
    slot.status = result.status;
    slot.finishedAt = entry.startedAt + Math.round(timing.totalMs);
    slot.timed = true;
    slot.queuedMs = timing.queuedMs;
    slot.runMs = timing.runMs;
    slot.totalMs = timing.totalMs;
    slot.attempts = provenance.attempts;
    slot.provider = provenance.provider;
    slot.errorClass = result.error?.class;
  }

  /** Drops in-progress entries older than the stale limit, recording them as timed out; on the call path at most once a second. */
  sweep(force = true, now = this.#now()): void {
    if (!force && now - this.#lastSweep < 1000 && now >= this.#lastSweep) return;
    this.#lastSweep = now;
    const cutoff = now - this.#staleMs;
    for (const entry of this.#running.entries()) {
      if (entry.startedAt > cutoff) continue;
      this.#running.delete(entry.id);
      const slot = this.#slot(entry);
      if (!slot) continue;
      slot.status = "timeout";
      slot.finishedAt = this.#now();
      slot.timed = false;
      slot.attempts = undefined;
      slot.provider = undefined;
      slot.errorClass = "timeout";
    }
  }

  list(): ExecutionRecord[] {
    this.sweep();
    const running = this.#running.entries().map((entry) => entry.record());
    return [...running, ...this.#newestFirst().map((slot) => slot.record())];
  }

  statistics(): ExecutionStatistics {
    this.sweep();
    const byStatus: Record<CallStatus, number> = { completed: 0, failed: 0, timeout: 0, cancelled: 0 };
    const totals: number[] = [];
    for (const slot of this.#history) {
      byStatus[slot.status]++;
      if (slot.timed) totals.push(slot.totalMs);
    }
    totals.sort((a, b) => a - b);
    const at = (q: number) => totals[Math.min(totals.length - 1, Math.floor(q * totals.length))] ?? 0;
    return {
      finished: this.#history.length,
      inProgress: this.#running.size,
      byStatus,
      p50TotalMs: at(0.5),
      p95TotalMs: at(0.95),
    };
  }

  /** The next ring slot, holding this call's id, name and start; undefined when no history is kept. */
  #slot(entry: Running): Slot | undefined {
    if (this.#size === 0) return undefined;
    let slot = this.#history[this.#next];
    if (!slot) {
      slot = new Slot();
      this.#history[this.#next] = slot;
    }
    this.#next = (this.#next + 1) % this.#size;
    slot.id = entry.id;
    slot.name = entry.name;
    slot.startedAt = entry.startedAt;
    return slot;
  }

  #newestFirst(): Slot[] {
    const h = this.#history;
    return [...h.slice(0, this.#next).reverse(), ...h.slice(this.#next).reverse()];
  }
}
