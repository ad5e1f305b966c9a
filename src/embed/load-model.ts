import { EmbedError } from "./errors.ts";
import type { ModelSpec } from "./protocol.ts";
import { loadUseLite, loadUseLiteTfjs } from "./providers/use-lite.ts";
import type { EmbeddingModel } from "./types.ts";

export async function loadModel(spec: ModelSpec): Promise<EmbeddingModel> {
  switch (spec.kind) {
    case "use-lite":
      return loadUseLite();
    case "use-lite-tfjs":
      return loadUseLiteTfjs();
    case "transformers":
      return (await transformersProvider()).loadTransformers(spec.model);
    default:
      throw new EmbedError(`unknown embedder "${String(spec.kind)}"`);
  }
}

/**
 * @huggingface/transformers is an optional peer dependency: it brings ONNX Runtime, whose install script
 * downloads, so an install of Switchboard does not pull it in and only this embedder kind loads it.
 */
async function transformersProvider(): Promise<typeof import("./providers/transformers.ts")> {
  try {
    return await import("./providers/transformers.ts");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (
      code === "ERR_MODULE_NOT_FOUND" &&
      String((error as Error).message).includes("@huggingface/transformers")
    )
      throw new EmbedError(
        'the "transformers" embedder needs the optional package @huggingface/transformers: npm install @huggingface/transformers',
      );
    throw error;
  }
}
