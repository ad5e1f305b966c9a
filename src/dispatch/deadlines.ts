// Per-attempt deadlines on one shared timer. Hand-written because measurement said so: a setTimeout per
// attempt (plus its clearTimeout) was the largest single cost of a successful call in
// `npm run bench:dispatch`, and the closures each timer held were promoted by the young-generation GC
// (timers live in a long-lived list), so a third of the time went to garbage collection. Here an attempt
// costs one small list node; one Node timer stays armed for the earliest deadline and is re-armed only
// when it fires. Node's timers offer no cheaper cancellable form, and no installed library does this.
//
// Deadlines with the same duration expire in the order they were added (the clock only moves forward),
// so each duration keeps a FIFO doubly-linked list and the earliest deadline is the earliest list head.
// The timer holds the process open only while some deadline is pending, as a timer per attempt did. It is
// not unreferenced the moment the last deadline goes (and referenced again by the next call, two native
// calls per call) but in a setImmediate after it, if still idle: calls that follow one another without the
// event loop turning (a batch, a client awaiting call after call) leave it as it is.
import { performance } from "node:perf_hooks";

export interface Deadline {
  /** Stops the deadline; harmless after it expired or was cancelled. */
  cancel(): void;
}

/**
 * What a deadline tells when it expires. An object with a method rather than a callback: an attempt is
 * its own target, so a deadline costs no closure (and no context for it) per call.
 */
export interface Expiring {
  expired(): void;
}

/** Fields `declare`d and assigned in the constructor: no class field initialiser runs per deadline. */
class Entry implements Deadline {
  declare readonly at: number;
  declare readonly target: Expiring;
  declare list: List | undefined;
  declare prev: Entry | undefined;
  declare next: Entry | undefined;

  constructor(at: number, target: Expiring, list: List) {
    this.at = at;
    this.target = target;
    this.list = list;
    this.prev = undefined;
    this.next = undefined;
  }

  cancel(): void {
    this.list?.remove(this);
  }
}

class List {
  head: Entry | undefined;
  tail: Entry | undefined;
  readonly #owner: DeadlineTimer;

  constructor(owner: DeadlineTimer) {
    this.#owner = owner;
  }

  append(node: Entry): void {
    node.prev = this.tail;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.#owner.pending++;
  }

  remove(node: Entry): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    // Unlinked nodes hold nothing, so a dead node cannot keep younger ones alive.
    node.prev = node.next = node.list = undefined;
    this.#owner.released();
  }
}

export class DeadlineTimer {
  readonly #lists = new Map<number, List>();
  #timer: NodeJS.Timeout | undefined;
  #armedAt = Number.POSITIVE_INFINITY;
  /** Whether the timer holds the process open. */
  #referenced = false;
  #unrefScheduled = false;
  /** Deadlines added and neither expired nor cancelled. */
  pending = 0;
  /** The list of the last deadline added, while it is in #lists. */
  #lastMs = Number.NaN;
  #lastList: List | undefined = undefined;

  /**
   * Calls `target.expired()` once `ms` milliseconds from now, unless cancelled first. A caller that has just read
   * `performance.now()` passes it as `now` (one clock read less per call); it must be the current time, as
   * the lists rely on deadlines being added in time order.
   */
  add(ms: number, target: Expiring, now = performance.now()): Deadline {
    // Nearly every deadline has the duration of the one before (one tool, or the default timeout).
    const list = (ms === this.#lastMs && this.#lastList) || this.#listFor(ms);
    const node = new Entry(now + ms, target, list);
    list.append(node);
    if (node.at < this.#armedAt) this.#arm(node.at);
    else if (!this.#referenced) this.#reference();
    return node;
  }

  #listFor(ms: number): List {
    let list = this.#lists.get(ms);
    if (!list) {
      list = new List(this);
      this.#lists.set(ms, list);
    }
    this.#lastMs = ms;
    this.#lastList = list;
    return list;
  }

  #reference(): void {
    this.#timer?.ref();
    this.#referenced = true;
  }

  /** Called by a list after a removal: an idle timer must not hold the process open. */
  released(): void {
    if (--this.pending > 0 || this.#unrefScheduled) return;
    this.#unrefScheduled = true;
    setImmediate(this.#unrefIfIdle);
  }

  readonly #unrefIfIdle = (): void => {
    this.#unrefScheduled = false;
    if (this.pending > 0) return;
    this.#timer?.unref();
    this.#referenced = false;
  };

  #arm(at: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#armedAt = at;
    // Node's timers may fire up to a millisecond before `at` by performance.now(); #fire re-arms then.
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, Math.ceil(at - performance.now())));
    this.#referenced = true;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    // A timer that fires late (a busy process) can find several lists due: earliest deadline first.
    for (let due = this.#earliestDue(now); due; due = this.#earliestDue(now)) {
      due.cancel();
      due.target.expired();
    }
    let earliest = Number.POSITIVE_INFINITY;
    for (const [ms, list] of this.#lists) {
      if (list.head) earliest = Math.min(earliest, list.head.at);
      else {
        this.#lists.delete(ms);
        if (list === this.#lastList) this.#lastList = undefined;
      }
    }
    // An expiry may have added deadlines (and armed the timer) already.
    if (earliest < this.#armedAt) this.#arm(earliest);
  }

  /** The earliest deadline at or before `now`, over the heads of all lists. */
  #earliestDue(now: number): Entry | undefined {
    let due: Entry | undefined;
    for (const list of this.#lists.values()) {
      const head = list.head;
      if (head && head.at <= now && (!due || head.at < due.at)) due = head;
    }
    return due;
  }
}
