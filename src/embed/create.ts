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
  // Compiled into dist/ the worker is a .js file beside this one; in a checkout Node runs the .ts.
  const worker = import.meta.url.endsWith(".ts") ? "./worker.ts" : "./worker.js";
  return startEmbedder(new URL(worker, import.meta.url), spec, options.workers);
}
