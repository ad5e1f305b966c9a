// Embedding speed of the default embedder (use-lite) through the public Embedder: workers, batching, no cache
// hits (every text is distinct). Prints one JSON object; compare figures within one run, not across machines.
import { createEmbedder } from "../src/embed/index.ts";

const SINGLE_QUERIES = 60;
const BATCH = 64;
const BATCH_ROUNDS = 3;

let serial = 0;
/** Distinct, query-like texts so that the embedder's cache never answers. */
function texts(count: number): string[] {
  return Array.from({ length: count }, () => {
    serial++;
    return `find the tool that handles request ${serial} about invoices, weather or calendar entry ${serial * 7}`;
  });
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

const round = (value: number): number => Math.round(value * 100) / 100;

const embedder = await createEmbedder({ kind: "use-lite" });
try {
  await embedder.embed(texts(BATCH)); // warm-up: first calls compile kernels

  const single: number[] = [];
  for (const text of texts(SINGLE_QUERIES)) {
    const start = performance.now();
    await embedder.embed([text]);
    single.push(performance.now() - start);
  }
  single.sort((a, b) => a - b);

  let batchedMs = 0;
  for (let i = 0; i < BATCH_ROUNDS; i++) {
    const start = performance.now();
    await embedder.embed(texts(BATCH));
    batchedMs += performance.now() - start;
  }

  let start = performance.now();
  for (const text of texts(BATCH)) await embedder.embed([text]);
  const sequentialMs = performance.now() - start;

  start = performance.now();
  await Promise.all(texts(BATCH).map((text) => embedder.embed([text])));
  const concurrentMs = performance.now() - start;

  console.log(
    JSON.stringify(
      {
        embedder: embedder.id,
        dimension: embedder.dimension,
        singleQuery: {
          count: SINGLE_QUERIES,
          p50Ms: round(percentile(single, 0.5)),
          p99Ms: round(percentile(single, 0.99)),
        },
        batched: { batchSize: BATCH, msPerText: round(batchedMs / (BATCH_ROUNDS * BATCH)) },
        concurrency: {
          calls: BATCH,
          sequentialMs: round(sequentialMs),
          concurrentMs: round(concurrentMs),
          speedup: round(sequentialMs / concurrentMs),
        },
      },
      null,
      2,
    ),
  );
} finally {
  await embedder.close();
}
