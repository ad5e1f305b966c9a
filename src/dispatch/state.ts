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
  readonly record: ExecutionRecord;
  #waiters: ((result: CallResult) => void)[] | undefined;

  constructor(record: ExecutionRecord) {
    this.record = record;
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
}

export class ExecutionLog {
  readonly #running = new Map<string, Running>();
  /** Ring buffer of finished executions; #next is where the next one goes. */
  readonly #history: ExecutionRecord[] = [];
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
    if (this.#now() - entry.record.startedAt >= this.#staleMs) this.sweep(true);
    return this.#running.get(id);
  }

  /** Marks a call as running; the dispatcher calls `end` with its result. */
  begin(id: string, name: string): Running {
    const startedAt = this.#now();
    this.sweep(false, startedAt);
    // Every field exists from the start (undefined until known), so finishing a record changes no hidden
    // class; `list` leaves the undefined ones out.
    const record: ExecutionRecord = {
      id,
      name,
      status: "in_progress",
      startedAt,
      finishedAt: undefined,
      timing: undefined,
      attempts: undefined,
      provider: undefined,
      errorClass: undefined,
    };
    const entry = new Running(record);
    this.#running.set(id, entry);
    return entry;
  }

  /** Finishes the record and hands the result to callers that shared the id. */
  end(entry: Running, result: CallResult): void {
    entry.notify(result);
    const { record } = entry;
    // An entry swept as stale has already been recorded; a late finish does not record it twice.
    if (this.#running.get(record.id) !== entry) return;
    this.#running.delete(record.id);
    record.status = result.status;
    record.finishedAt = record.startedAt + Math.round(result.timing.totalMs);
    record.timing = result.timing;
    record.attempts = result.provenance.attempts;
    if (result.provenance.provider !== undefined) record.provider = result.provenance.provider;
    if (result.error) record.errorClass = result.error.class;
    this.#remember(record);
  }

  /** Drops in-progress entries older than the stale limit, recording them as timed out; on the call path at most once a second. */
  sweep(force = true, now = this.#now()): void {
    if (!force && now - this.#lastSweep < 1000 && now >= this.#lastSweep) return;
    this.#lastSweep = now;
    const cutoff = now - this.#staleMs;
    for (const [id, { record }] of this.#running) {
      if (record.startedAt > cutoff) continue;
      this.#running.delete(id);
      record.status = "timeout";
      record.finishedAt = this.#now();
      record.errorClass = "timeout";
      this.#remember(record);
    }
  }

  list(): ExecutionRecord[] {
    this.sweep();
    return [...[...this.#running.values()].map((r) => r.record), ...this.#newestFirst()].map(definedFields);
  }

  statistics(): ExecutionStatistics {
    this.sweep();
    const byStatus: Record<CallStatus, number> = { completed: 0, failed: 0, timeout: 0, cancelled: 0 };
    const totals: number[] = [];
    for (const r of this.#history) {
      byStatus[r.status as CallStatus]++;
      if (r.timing) totals.push(r.timing.totalMs);
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

  #remember(record: ExecutionRecord): void {
    if (this.#size === 0) return;
    this.#history[this.#next] = record;
    this.#next = (this.#next + 1) % this.#size;
  }

  #newestFirst(): ExecutionRecord[] {
    const h = this.#history;
    return [...h.slice(0, this.#next).reverse(), ...h.slice(this.#next).reverse()];
  }
}

function definedFields(record: ExecutionRecord): ExecutionRecord {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) copy[key] = value;
  return copy as unknown as ExecutionRecord;
}
