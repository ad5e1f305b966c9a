// Merges embedding calls into model batches: calls that arrive in the same turn of the event loop, or while
// every worker is busy, are sent together as one batch (up to `maxBatch` texts) and split back per call.
// Large calls are cut into batches so that they spread over workers, and small calls (queries) go first, so
// that a query waits behind at most one batch of a catalog being indexed, never the whole catalog.
// A model batch costs much less per text when it holds several texts (USE-lite: one text alone about 1.7×
// the CPU of each text in a batch of 16), so while a worker computes queries, an idle one waits until the
// queue holds its share of the queries in the embedder; the busy worker's answer drains the queue again,
// so a query waits behind at most one batch. With every worker idle a query goes at once.
// Written here rather than taken from a library because it must follow worker availability.
import { EmbedError } from "./errors.ts";
import type { WorkerPool } from "./worker-pool.ts";

interface Pending {
  texts: string[];
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

export class MicroBatcher {
  private readonly pool: WorkerPool;
  private readonly maxBatch: number;
  /** Calls of fewer than maxBatch texts, served first. */
  private queries: Pending[] = [];
  /** Slices of larger calls, in order. */
  private bulk: Pending[] = [];
  private drainScheduled = false;
  private closed = false;
  /** Texts waiting in `queries` and `bulk`. */
  private queued = 0;
  /** Texts of query calls that workers are computing now. */
  private queriesInFlight = 0;

  constructor(pool: WorkerPool, maxBatch: number) {
    this.pool = pool;
    this.maxBatch = maxBatch;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.closed) throw new EmbedError("embedder is closed");
    const queue = texts.length < this.maxBatch ? this.queries : this.bulk;
    const parts: Promise<Float32Array[]>[] = [];
    for (let start = 0; start < texts.length; start += this.maxBatch) {
      const part = texts.slice(start, start + this.maxBatch);
      parts.push(new Promise((resolve, reject) => queue.push({ texts: part, resolve, reject })));
    }
    this.queued += texts.length;
    this.scheduleDrain();
    return (await Promise.all(parts)).flat();
  }

  /** Waits one turn of the event loop so that concurrent callers land in the same batch. */
  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    for (;;) {
      const idle = this.pool.idleCount();
      if (idle === 0 || this.queued === 0) return;
      if (idle < this.pool.size) {
        // Some worker is busy: wait for this worker's share of the queries, up to a full batch.
        const share = Math.ceil((this.queued + this.queriesInFlight) / this.pool.size);
        if (this.queued < Math.min(this.maxBatch, share)) return;
      }
      // Queued texts spread over the idle workers, so that two idle workers share a burst.
      const limit = Math.min(this.maxBatch, Math.ceil(this.queued / idle));
      const batch: Pending[] = [];
      let size = 0;
      let queries = 0;
      for (const queue of [this.queries, this.bulk]) {
        while (
          queue.length > 0 &&
          (batch.length === 0 || size + (queue[0] as Pending).texts.length <= limit)
        ) {
          const next = queue.shift() as Pending;
          batch.push(next);
          size += next.texts.length;
          if (queue === this.queries) queries += next.texts.length;
        }
      }
      this.queued -= size;
      void this.run(batch, queries);
    }
  }

  private async run(batch: Pending[], queries: number): Promise<void> {
    this.queriesInFlight += queries;
    try {
      const flat = await this.pool.embed(batch.flatMap((pending) => pending.texts));
      const dimension = this.pool.dimension;
      let offset = 0;
      for (const pending of batch) {
        const vectors = pending.texts.map((_, index) =>
          flat.subarray((offset + index) * dimension, (offset + index + 1) * dimension),
        );
        offset += pending.texts.length;
        pending.resolve(vectors);
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error as Error);
    } finally {
      this.queriesInFlight -= queries;
      // The worker is idle again (pool.embed has settled): queued work can go to it.
      this.drain();
    }
  }

  close(): void {
    this.closed = true;
    const error = new EmbedError("embedder closed before this call was embedded");
    for (const pending of [...this.queries, ...this.bulk]) pending.reject(error);
    this.queries = [];
    this.bulk = [];
    this.queued = 0;
  }
}
