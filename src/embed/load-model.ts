import { EmbedError } from "./errors.ts";
import type { ModelSpec } from "./protocol.ts";
import { loadTransformers } from "./providers/transformers.ts";
import { loadUseLite } from "./providers/use-lite.ts";
import type { EmbeddingModel } from "./types.ts";

export async function loadModel(spec: ModelSpec): Promise<EmbeddingModel> {
  switch (spec.kind) {
    case "use-lite":
      return loadUseLite();
    case "transformers":
      return loadTransformers(spec.model);
    default:
      throw new EmbedError(`unknown embedder "${String(spec.kind)}"`);
  }
}
