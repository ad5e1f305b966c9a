// Recent executions per API key: each key's finished calls in a ring of its own, so that one key's flood of
// calls pushes out only its own history, never another key's (SECURITY.md, "Call ids, executions and the
// cache"). The key is the owner prefix the servers put on every call id (`<key id>/<caller's id>`).
import { LRUCache } from "lru-cache";
import type { CallResult, ExecutionRecord } from "../dispatch/index.ts";

/** Finished calls kept per key. */
export const EXECUTIONS_PER_KEY = 100;
/** Keys remembered at once: the least recently active key's history goes first beyond this. */
const MAX_KEYS = 1_000;
/** Whose calls carry no owner prefix (the CLI, a program using the library). */
export const UNSCOPED = "local";

/** The key id a call id is scoped to. */
export function ownerOf(callId: string): string {
  const slash = callId.indexOf("/");
  return slash > 0 ? callId.slice(0, slash) : UNSCOPED;
}

export interface ExecutionFilter {
  /** A key id: that key's executions only. */
  key?: string;
  tool?: string;
  status?: ExecutionRecord["status"];
  /** At most this many, newest first. */
  limit?: number;
}

/** A ring of one key's finished calls, oldest overwritten first. */
class Ring {
  readonly #records: ExecutionRecord[] = [];
  #next = 0;

  add(record: ExecutionRecord): void {
    this.#records[this.#next] = record;
    this.#next = (this.#next + 1) % EXECUTIONS_PER_KEY;
  }

  newestFirst(): ExecutionRecord[] {
    const r = this.#records;
    return [...r.slice(0, this.#next).reverse(), ...r.slice(this.#next).reverse()];
  }
}

export class ExecutionHistory {
  readonly #byKey = new LRUCache<string, Ring>({ max: MAX_KEYS });

  /** Takes a finished call in (the dispatcher's "call" event). */
  record(result: CallResult, now = Date.now()): void {
    const owner = ownerOf(result.id);
    let ring = this.#byKey.get(owner);
    if (!ring) {
      ring = new Ring();
      this.#byKey.set(owner, ring);
    }
    const record: ExecutionRecord = {
      id: result.id,
      name: result.name,
      status: result.status,
      startedAt: Math.round(now - result.timing.totalMs),
      finishedAt: now,
      timing: result.timing,
      attempts: result.provenance.attempts,
    };
    if (result.provenance.provider !== undefined) record.provider = result.provenance.provider;
    if (result.error) record.errorClass = result.error.class;
    ring.add(record);
  }

  /**
   * The calls running now (from the dispatcher) and the finished ones kept, newest first, that match
   * `filter`.
   */
  list(running: ExecutionRecord[], filter: ExecutionFilter = {}): ExecutionRecord[] {
    const { key, tool, status, limit } = filter;
    const finished =
      key === undefined
        ? [...this.#byKey.values()].flatMap((ring) => ring.newestFirst())
        : (this.#byKey.peek(key)?.newestFirst() ?? []);
    if (key === undefined) finished.sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0));
    const all = [...running.filter((record) => record.status === "in_progress"), ...finished].filter(
      (record) =>
        (key === undefined || ownerOf(record.id) === key) &&
        (tool === undefined || record.name === tool) &&
        (status === undefined || record.status === status),
    );
    return limit === undefined ? all : all.slice(0, limit);
  }
}
