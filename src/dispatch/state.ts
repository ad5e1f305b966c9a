// Execution state: each call is in_progress until it is completed, failed, timeout or cancelled. A
// tool_call_id that is already running is not run again (the second caller shares the first's outcome);
// in-progress entries older than the stale limit are dropped; the last N finished executions are kept.
import { performance } from "node:perf_hooks";
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
 * A call's entry in the log while it runs. The dispatcher's per-call state is one, so logging a call makes
 * no object of its own; an interface of plain fields rather than a base class to extend, because the
 * derived constructor (its `super` call, the base's field initialisers) cost more per call than the rest
 * of making the call's state, until V8 optimised it fully (measured in `npm run bench:dispatch`).
 */
export interface Running {
  readonly id: string;
  readonly name: string;
  /** Set by `ExecutionLog.begin`. */
  startedAt: number;
  /** Set when the call has left the running index (finished, or swept as stale). */
  finished: boolean;
  /**
   * Second callers with the same id, waiting for the result (`ExecutionLog.share`): a list made only when
   * someone waits, rather than a promise on every call's path. Undefined until then.
   */
  waiters: ((result: CallResult) => void)[] | undefined;
}

function recordOf(entry: Running): ExecutionRecord {
  return { id: entry.id, name: entry.name, status: "in_progress", startedAt: entry.startedAt };
}

/**
 * One place in the history ring, overwritten in place by each finished call. Keeping each call's own record
 * object in the ring would make V8 promote it at every young-generation collection (the ring is old, its
 * records young), a cost `npm run bench:dispatch` shows; copying a few fields into long-lived slots
 * allocates nothing.
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
 * Calls in progress by id. A finished call's entry is marked and left in place, and the finished ones are
 * dropped all at once by starting a new Map every ~100 calls. Measured in `npm run bench:dispatch`: a
 * Map that gains and loses a key per call reallocates its table every call or two, and V8 links each
 * obsolete table to its successor (for live iterators), so once one was promoted every later one was
 * dragged along, most of a call's garbage-collection time. A null-prototype object avoids that but has to
 * internalise every new id string on lookup, which cost more than the rest of the log.
 *
 * A call that starts while nothing else runs (a client awaiting call after call: the common case) is
 * kept in a field of its own, not in the Map, and joins it only if another call starts beside it; so
 * such a call costs no hashing of its id and no Map insertion at all.
 */
class RunningIndex {
  #byId = new Map<string, Running>();
  /** The call that started while nothing ran, until it finishes; it is not in #byId. */
  #alone: Running | undefined = undefined;
  #size = 0;
  #renewAt = RENEW_AT;

  /** Calls in progress. */
  get size(): number {
    return this.#size;
  }

  get(id: string): Running | undefined {
    // Nothing running, nothing to share: a client awaiting call after call never pays for the lookup.
    if (this.#size === 0) return undefined;
    const alone = this.#alone;
    if (alone !== undefined && alone.id === id) return alone;
    const entry = this.#byId.get(id);
    return entry && !entry.finished ? entry : undefined;
  }

  set(entry: Running): void {
    if (this.#size === 0) {
      this.#alone = entry;
      this.#size = 1;
    } else this.#setBeside(entry);
  }

  #setBeside(entry: Running): void {
    const alone = this.#alone;
    if (alone !== undefined) {
      // Another call starts beside it: from now on both are found in the Map.
      this.#alone = undefined;
      this.#insert(alone);
    }
    this.#insert(entry);
    this.#size++;
  }

  /** Marks a call that is in the index as finished. */
  finish(entry: Running): void {
    entry.finished = true;
    if (this.#alone === entry) this.#alone = undefined;
    this.#size--;
  }

  /** Oldest first. */
  entries(): Running[] {
    const running: Running[] = this.#alone ? [this.#alone] : [];
    for (const entry of this.#byId.values()) if (!entry.finished) running.push(entry);
    return running.sort((a, b) => a.startedAt - b.startedAt);
  }

  #insert(entry: Running): void {
    if (this.#byId.size >= this.#renewAt) this.#renew();
    this.#byId.set(entry.id, entry);
  }

  #renew(): void {
    const running: Running[] = [];
    for (const entry of this.#byId.values()) if (!entry.finished) running.push(entry);
    // Usually nothing in the Map is running by then, and there is nothing to carry over.
    this.#byId = new Map(running.map((entry) => [entry.id, entry]));
    this.#renewAt = Math.max(RENEW_AT, 2 * running.length);
  }
}

const RENEW_AT = 128;

export class ExecutionLog {
  readonly #running = new RunningIndex();
  /** Ring buffer of finished executions, oldest overwritten first; #next is where the next one goes. */
  readonly #history: Slot[] = [];
  #next = 0;
  #lastSweep = 0;
  readonly #size: number;
  readonly #staleMs: number;
  readonly #now: () => number;
  /** The wall clock (`now`) as last read, and the performance.now() it was read at. */
  #wallAt = 0;
  #wallReadAt = Number.NEGATIVE_INFINITY;

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
    if (this.#now() - entry.startedAt >= this.#staleMs) this.sweep();
    return this.#running.get(id);
  }

  /**
   * Marks a call as running; the dispatcher calls `end` with its result. `monotonic` is the call's own
   * performance.now() reading at its start, which spares the log a wall-clock read (see #wallClock).
   */
  begin(entry: Running, monotonic: number): void {
    const startedAt = this.#wallClock(monotonic);
    this.#sweepIfDue(startedAt);
    entry.startedAt = startedAt;
    this.#running.set(entry);
  }

  /** Calls `waiter` with the result of the running call `entry` once it is finished. */
  share(entry: Running, waiter: (result: CallResult) => void): void {
    if (entry.waiters) entry.waiters.push(waiter);
    else entry.waiters = [waiter];
  }

  /** Records the result and hands it to callers that shared the id. */
  end(entry: Running, result: CallResult): void {
    const waiters = entry.waiters;
    if (waiters) {
      entry.waiters = undefined;
      for (const waiter of waiters) waiter(result);
    }
    // An entry swept as stale has already been recorded; a late finish does not record it twice.
    if (entry.finished) return;
    this.#running.finish(entry);
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

  /** Drops in-progress entries older than the stale limit, recording them as timed out. */
  sweep(): void {
    const now = this.#now();
    // The wall clock was just read: later calls start from it (it may have jumped, as a mocked one does).
    this.#wallAt = now;
    this.#wallReadAt = performance.now();
    this.#sweepIfDue(now, true);
  }

  /**
   * On the call path the log is swept at most once a second (or when the clock has gone back). The check
   * and the sweep are one function, called on every call: with the sweep a call of its own behind the
   * check, V8 inlined the check into the dispatcher's call path, where the sweep's call site had no type
   * feedback yet (it last ran before V8 gathered any), and the first sweep a second later deoptimised the
   * whole call path (`--trace-deopt` on `npm run bench:dispatch`).
   */
  #sweepIfDue(now: number, force = false): void {
    if (!force && now - this.#lastSweep < 1000 && now >= this.#lastSweep) return;
    this.#lastSweep = now;
    const cutoff = now - this.#staleMs;
    for (const entry of this.#running.entries()) {
      if (entry.startedAt > cutoff) continue;
      this.#running.finish(entry);
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
    const running = this.#running.entries().map(recordOf);
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

  /**
   * The wall-clock time of a performance.now() reading, to the millisecond the wall clock gives: it is read
   * again only once a millisecond has passed since the last read (or the reading goes back). Measured: a
   * Date.now() cost 100–250 ns on this machine, more than the rest of the log together.
   */
  #wallClock(monotonic: number): number {
    if (monotonic - this.#wallReadAt >= 1 || monotonic < this.#wallReadAt) {
      this.#wallAt = this.#now();
      this.#wallReadAt = monotonic;
    }
    return this.#wallAt;
  }

  /** The next ring slot, holding this call's id, name and start; undefined when no history is kept. */
  #slot(entry: Running): Slot | undefined {
    if (this.#size === 0) return undefined;
    const slot = this.#history[this.#next] ?? this.#newSlot();
    this.#next = (this.#next + 1) % this.#size;
    slot.id = entry.id;
    slot.name = entry.name;
    slot.startedAt = entry.startedAt;
    return slot;
  }

  #newSlot(): Slot {
    const slot = new Slot();
    this.#history[this.#next] = slot;
    return slot;
  }

  #newestFirst(): Slot[] {
    const h = this.#history;
    return [...h.slice(0, this.#next).reverse(), ...h.slice(this.#next).reverse()];
  }
}
