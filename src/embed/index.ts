export { createEmbedder } from "./create.ts";
export { EmbedError } from "./errors.ts";
export { EMBEDDER_KINDS, type Embedder, type EmbedderKind, type EmbedderOptions } from "./types.ts";
