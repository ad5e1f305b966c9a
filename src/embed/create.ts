import { EmbedError } from "./errors.ts";
import { normaliseInPlace } from "./normalise.ts";
import { loadUseLite } from "./providers/use-lite.ts";
import { EMBEDDER_KINDS, type Embedder, type EmbedderOptions } from "./types.ts";

export async function createEmbedder(options: EmbedderOptions): Promise<Embedder> {
  if (!EMBEDDER_KINDS.includes(options.kind))
    throw new EmbedError(
      `unknown embedder "${String(options.kind)}"; valid kinds: ${EMBEDDER_KINDS.join(", ")}`,
    );
  if (options.kind !== "use-lite") throw new EmbedError(`embedder "${options.kind}" is not available yet`);
  const model = await loadUseLite();
  return {
    id: model.id,
    dimension: model.dimension,
    async embed(texts) {
      if (texts.length === 0) return [];
      return (await model.embedBatch(texts)).map(normaliseInPlace);
    },
    async close() {},
  };
}
