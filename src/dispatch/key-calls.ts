// How many calls each key (caller) has in the dispatcher, in flight, queued for slots or waiting for a
// retry. The per-key limit on this number is what keeps one key's flood from taking the slot queues and
// the memory of waiting calls from everyone else. A key's counter is kept while the key is in use (calls
// from one key in a row find it without a lookup); idle counters are swept when there are many.
const KEYS_KEPT = 10_000;

interface Counter {
  n: number;
}

export class KeyCalls {
  readonly limit: number;
  readonly #counts = new Map<string, Counter>();
  #lastKey: string | undefined;
  #last: Counter | undefined;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Counts a call in for `key`; false (and nothing counted) when the key already has `limit` calls. */
  enter(key: string): boolean {
    const counter = this.#counter(key);
    if (counter.n >= this.limit) return false;
    counter.n++;
    return true;
  }

  leave(key: string): void {
    this.#counter(key).n--;
  }

  /** The calls `key` has under way. */
  of(key: string): number {
    return this.#counts.get(key)?.n ?? 0;
  }

  #counter(key: string): Counter {
    if (key === this.#lastKey) return this.#last as Counter;
    let counter = this.#counts.get(key);
    if (!counter) {
      if (this.#counts.size >= KEYS_KEPT) this.#sweep();
      counter = { n: 0 };
      this.#counts.set(key, counter);
    }
    this.#lastKey = key;
    this.#last = counter;
    return counter;
  }

  /** Drops the counters of keys with nothing under way (the last key's is kept: it is cached). */
  #sweep(): void {
    for (const [key, counter] of this.#counts)
      if (counter.n === 0 && key !== this.#lastKey) this.#counts.delete(key);
  }
}
