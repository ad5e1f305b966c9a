// An Embedder over a pool of worker threads: an LRU cache of recent texts in front of a micro-batcher.
import { availableParallelism } from "node:os";
import { LRUCache } from "lru-cache";
import { EmbedError } from "./errors.ts";
import { MicroBatcher } from "./micro-batcher.ts";
import type { Embedder } from "./types.ts";
import { WorkerPool } from "./worker-pool.ts";

/** Texts per model call: most of the batching gain, while a query waits behind at most one such batch. */
const MAX_BATCH = 64;
/** Routers see the same queries again and again; 1,024 vectors of 512 floats is about 2 MB. */
const CACHE_ENTRIES = 1024;

function workerCount(requested: number | undefined): number {
  // Each worker holds its own model copy (about 30 MB) and keeps one core busy while it has work. One per
  // core: the event loop's share of a route is small next to the embedding (docs/performance.md, "Embedder").
  if (requested === undefined) return availableParallelism();
  if (!Number.isInteger(requested) || requested < 1)
    throw new EmbedError(`workers must be a whole number of at least 1 (got ${requested})`);
  return requested;
}

/** Starts `workers` threads running `entry` (a module that calls serveModel) with `data` as workerData. */
export async function startEmbedder(entry: URL, data: unknown, workers?: number): Promise<Embedder> {
  const pool = await WorkerPool.start({ entry, data, size: workerCount(workers) });
  const batcher = new MicroBatcher(pool, MAX_BATCH);
  // Holds the texts of query-sized calls only, so that indexing a catalog does not push the queries out.
  // Stored and handed out as copies, so a caller that changes a vector cannot change the cache.
  const cache = new LRUCache<string, Float32Array>({ max: CACHE_ENTRIES });

  return {
    id: pool.id,
    dimension: pool.dimension,
    runtime: pool.runtime,
    ...(pool.fallback ? { fallback: pool.fallback } : {}),
    async embed(texts) {
      const wrong = texts.findIndex((text) => typeof text !== "string");
      if (wrong >= 0) throw new EmbedError(`texts[${wrong}] is ${typeof texts[wrong]}, not a string`);
      const results = texts.map((text) => cache.get(text)?.slice());
      const missing = [...new Set(texts.filter((_, index) => results[index] === undefined))];
      if (missing.length > 0) {
        const vectors = await batcher.embed(missing);
        const byText = new Map(missing.map((text, index) => [text, vectors[index] as Float32Array]));
        if (texts.length < MAX_BATCH) for (const [text, vector] of byText) cache.set(text, vector.slice());
        texts.forEach((text, index) => {
          results[index] ??= byText.get(text)?.slice();
        });
      }
      return results as Float32Array[];
    },
    async close() {
      batcher.close();
      await pool.close();
    },
  };
}
