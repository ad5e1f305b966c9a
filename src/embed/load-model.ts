import { EmbedError } from "./errors.ts";
import type { ModelSpec } from "./protocol.ts";
import { loadUseLite } from "./providers/use-lite.ts";
import type { EmbeddingModel } from "./types.ts";

export async function loadModel(spec: ModelSpec): Promise<EmbeddingModel> {
  switch (spec.kind) {
    case "use-lite":
      return loadUseLite();
    default:
      throw new EmbedError(`embedder "${spec.kind}" is not available yet`);
  }
}
