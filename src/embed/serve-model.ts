// The worker side of the protocol: embeds each batch it is sent with the model it was given.
import { parentPort } from "node:worker_threads";
import { normaliseInPlace } from "./normalise.ts";
import type { EmbedRequest, WorkerMessage } from "./protocol.ts";
import type { EmbeddingModel } from "./types.ts";

function post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

export async function serveModel(load: () => Promise<EmbeddingModel>): Promise<void> {
  let model: EmbeddingModel;
  try {
    model = await load();
  } catch (error) {
    post({ type: "load-failed", message: (error as Error).message });
    return;
  }
  const { id, dimension, runtime, fallback } = model;
  post({ type: "ready", id, dimension, runtime, ...(fallback ? { fallback } : {}) });
  // The parent sends one batch at a time and waits for its answer, so batches never overlap here.
  parentPort?.on("message", async ({ batchId, texts }: EmbedRequest) => {
    try {
      const raw = await model.embedBatch(texts);
      const vectors = new Float32Array(texts.length * model.dimension);
      raw.forEach((vector, index) => {
        vectors.set(normaliseInPlace(vector), index * model.dimension);
      });
      post({ type: "vectors", batchId, vectors }, [vectors.buffer]);
    } catch (error) {
      post({ type: "embed-failed", batchId, message: (error as Error).message });
    }
  });
}
