import { moduleFile } from "../config/index.ts";
import { startEmbedder } from "./embedder.ts";
import { EmbedError } from "./errors.ts";
import type { ModelSpec } from "./protocol.ts";
import { EMBEDDER_KINDS, type Embedder, type EmbedderOptions } from "./types.ts";

/** Starts the worker threads of an embedder and resolves once each has loaded its model. */
export async function createEmbedder(options: EmbedderOptions): Promise<Embedder> {
  if (!EMBEDDER_KINDS.includes(options.kind))
    throw new EmbedError(
      `unknown embedder "${String(options.kind)}"; valid kinds: ${EMBEDDER_KINDS.join(", ")}`,
    );
  const spec: ModelSpec = { kind: options.kind, model: options.model };
  return startEmbedder(moduleFile("./worker.ts", import.meta.url), spec, options.workers);
}
