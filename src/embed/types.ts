/**
 * The kinds of embedder `createEmbedder` can build (the list lives with the configuration that names them,
 * SWITCHBOARD_EMBEDDER); the first is the default. "use-lite" runs on ONNX Runtime's native CPU build and
 * falls back to tfjs WebAssembly where that cannot load; "use-lite-tfjs" is the tfjs path alone (same model
 * and vectors, for comparison and for machines where the native one misbehaves).
 */
import { EMBEDDER_KINDS } from "../config/index.ts";

export { EMBEDDER_KINDS };
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

export interface EmbedderOptions {
  kind: EmbedderKind;
  /** transformers only: a Hugging Face model id, or a local model folder (loaded with remote loading off). */
  model?: string;
  /** Worker threads computing embeddings; default one per core (one model copy per worker). */
  workers?: number;
}

export interface Embedder {
  /** Names the model and its version: vectors from embedders with different ids must never be mixed. */
  readonly id: string;
  readonly dimension: number;
  /** What computes the vectors, e.g. "onnxruntime-node 1.30.0" or "tfjs-wasm". */
  readonly runtime: string;
  /** Set when a slower runtime stands in for the one this kind prefers: why the preferred one did not load. */
  readonly fallback?: string;
  /** One unit-normalised vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** What a loaded model offers inside the thread that runs it. */
export interface EmbeddingModel {
  readonly id: string;
  readonly dimension: number;
  readonly runtime: string;
  readonly fallback?: string;
  /** Raw vectors, one per text; normalisation happens after. */
  embedBatch(texts: string[]): Promise<Float32Array[]>;
}
