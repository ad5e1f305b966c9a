// Messages between the embedder (main thread) and its worker threads.
import type { EmbedderKind } from "./types.ts";

/** What a worker loads: sent as workerData. */
export interface ModelSpec {
  kind: EmbedderKind;
  model?: string;
}

export interface EmbedRequest {
  batchId: number;
  texts: string[];
}

export type WorkerMessage =
  | { type: "ready"; id: string; dimension: number; runtime: string; fallback?: string }
  | { type: "load-failed"; message: string }
  /** All vectors of a batch in one transferred buffer, `dimension` floats per text, in order. */
  | { type: "vectors"; batchId: number; vectors: Float32Array }
  | { type: "embed-failed"; batchId: number; message: string };
