/** The kinds of embedder `createEmbedder` can build; the first is the default. */
export const EMBEDDER_KINDS = ["use-lite", "transformers"] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

export interface EmbedderOptions {
  kind: EmbedderKind;
  /** transformers only: a Hugging Face model id, or a local model folder (loaded with remote loading off). */
  model?: string;
  /** Worker threads computing embeddings; default 1 (one model copy per worker). */
  workers?: number;
}

export interface Embedder {
  /** Names the model and its version: vectors from embedders with different ids must never be mixed. */
  readonly id: string;
  readonly dimension: number;
  /** One unit-normalised vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** What a loaded model offers inside the thread that runs it. */
export interface EmbeddingModel {
  readonly id: string;
  readonly dimension: number;
  /** Raw vectors, one per text; normalisation happens after. */
  embedBatch(texts: string[]): Promise<Float32Array[]>;
}
