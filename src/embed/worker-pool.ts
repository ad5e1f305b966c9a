// A fixed number of worker threads, each holding one copy of the model and computing one batch at a time.
// A worker that dies fails only the batch it was computing; its slot starts a fresh worker on next use.
import { Worker } from "node:worker_threads";
import { EmbedError } from "./errors.ts";
import type { EmbedRequest, WorkerMessage } from "./protocol.ts";

interface ModelInfo {
  id: string;
  dimension: number;
  runtime: string;
  fallback?: string;
}

interface Batch {
  id: number;
  size: number;
  resolve(vectors: Float32Array): void;
  reject(error: Error): void;
}

class WorkerSlot {
  private worker: Worker | undefined;
  private ready: Promise<ModelInfo> | undefined;
  private batch: Batch | undefined;
  private lastError: Error | undefined;
  private readonly entry: URL;
  private readonly data: unknown;
  busy = false;

  constructor(entry: URL, data: unknown) {
    this.entry = entry;
    this.data = data;
  }

  /** Starts the worker when there is none (first use, or after it died) and waits for its model. */
  start(): Promise<ModelInfo> {
    if (this.worker && this.ready) return this.ready;
    const worker = new Worker(this.entry, { workerData: this.data });
    this.worker = worker;
    this.lastError = undefined;
    this.ready = new Promise<ModelInfo>((resolve, reject) => {
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "ready") {
          // An idle worker does not keep the process alive; one computing a batch does (see embed()).
          worker.unref();
          const { id, dimension, runtime, fallback } = message;
          resolve({ id, dimension, runtime, ...(fallback ? { fallback } : {}) });
        } else if (message.type === "load-failed") {
          reject(new EmbedError(message.message));
          this.stop(worker);
        } else this.settle(message);
      });
      worker.on("error", (error) => {
        this.lastError = error;
      });
      worker.on("exit", (code) => {
        if (this.worker !== worker) return;
        this.worker = undefined;
        this.ready = undefined;
        const cause = this.lastError ? `: ${this.lastError.message}` : "";
        reject(new EmbedError(`embedding worker exited with code ${code} before its model loaded${cause}`));
        if (this.batch) {
          this.batch.reject(
            new EmbedError(
              `embedding worker exited with code ${code} while embedding ${this.batch.size} texts${cause}; ` +
                "a new worker starts on the next call",
            ),
          );
          this.batch = undefined;
        }
      });
    });
    // Callers of start() handle the rejection; this keeps an unawaited failure from crashing the process.
    this.ready.catch(() => {});
    return this.ready;
  }

  async embed(batchId: number, texts: string[], expectedModel: string): Promise<Float32Array> {
    const { id } = await this.start();
    // A restarted worker reloads the model from disk: vectors from changed files must not be mixed in.
    if (id !== expectedModel)
      throw new EmbedError(
        `the restarted embedding worker loaded model ${id}, not ${expectedModel}; recreate the embedder`,
      );
    const worker = this.worker;
    if (!worker) throw new EmbedError("embedding worker exited before it could take a batch");
    worker.ref();
    try {
      return await new Promise<Float32Array>((resolve, reject) => {
        this.batch = { id: batchId, size: texts.length, resolve, reject };
        worker.postMessage({ batchId, texts } satisfies EmbedRequest);
      });
    } finally {
      worker.unref();
    }
  }

  private settle(message: Extract<WorkerMessage, { batchId: number }>): void {
    const batch = this.batch;
    if (!batch || batch.id !== message.batchId) return;
    this.batch = undefined;
    if (message.type === "vectors") batch.resolve(message.vectors);
    else batch.reject(new EmbedError(`embedding failed: ${message.message}`));
  }

  private stop(worker: Worker): void {
    if (this.worker === worker) {
      this.worker = undefined;
      this.ready = undefined;
    }
    void worker.terminate();
  }

  async close(): Promise<void> {
    this.batch?.reject(new EmbedError("embedder closed while a batch was being embedded"));
    this.batch = undefined;
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (worker) await worker.terminate();
  }
}

export class WorkerPool {
  private readonly slots: WorkerSlot[];
  private nextBatchId = 1;

  readonly id: string;
  readonly dimension: number;
  readonly runtime: string;
  readonly fallback: string | undefined;

  private constructor(slots: WorkerSlot[], info: ModelInfo) {
    this.slots = slots;
    this.id = info.id;
    this.dimension = info.dimension;
    this.runtime = info.runtime;
    this.fallback = info.fallback;
  }

  /** Starts `size` workers running `entry` with `data` and waits until every one has loaded its model. */
  static async start(options: { entry: URL; data: unknown; size: number }): Promise<WorkerPool> {
    const slots = Array.from({ length: options.size }, () => new WorkerSlot(options.entry, options.data));
    const started = await Promise.allSettled(slots.map((slot) => slot.start()));
    const failure = started.find((result) => result.status === "rejected");
    if (failure) {
      await Promise.all(slots.map((slot) => slot.close()));
      throw failure.reason;
    }
    const info = (started[0] as PromiseFulfilledResult<ModelInfo>).value;
    return new WorkerPool(slots, info);
  }

  get size(): number {
    return this.slots.length;
  }

  idleCount(): number {
    let idle = 0;
    for (const slot of this.slots) if (!slot.busy) idle++;
    return idle;
  }

  /** Embeds one batch on an idle worker; `dimension` floats per text, in order. Call only when idleCount() > 0. */
  async embed(texts: string[]): Promise<Float32Array> {
    const slot = this.slots.find((candidate) => !candidate.busy);
    if (!slot) throw new EmbedError("no idle embedding worker (internal scheduling error)");
    slot.busy = true;
    try {
      return await slot.embed(this.nextBatchId++, texts, this.id);
    } finally {
      slot.busy = false;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.close()));
  }
}
