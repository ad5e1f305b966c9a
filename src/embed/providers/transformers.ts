// Any Hugging Face feature-extraction model through @huggingface/transformers (ONNX Runtime for Node):
// from a local model folder with remote loading off, or by hub id when the machine has network.
import { createHash } from "node:crypto";
import { access, readFile, stat } from "node:fs/promises";
import { basename, isAbsolute, join, resolve } from "node:path";
import { env, type FeatureExtractionPipeline, pipeline } from "@huggingface/transformers";
import { EmbedError } from "../errors.ts";
import type { EmbeddingModel } from "../types.ts";

export const DEFAULT_TRANSFORMERS_MODEL = "Xenova/all-MiniLM-L6-v2";

/** What a model folder must hold for full-precision (fp32) feature extraction. */
export const MODEL_FOLDER_FILES = [
  "config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "onnx/model.onnx",
];

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function missingFiles(folder: string): Promise<string[]> {
  const missing: string[] = [];
  for (const file of MODEL_FOLDER_FILES) {
    try {
      await access(join(folder, file));
    } catch {
      missing.push(file);
    }
  }
  return missing;
}

/** Short hash of the weights, tokenizer and config, so that an index notices when a model's files change. */
async function contentVersion(folder: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of MODEL_FOLDER_FILES) hash.update(await readFile(join(folder, file)));
  return hash.digest("hex").slice(0, 12);
}

/** Resolves `model` to a local folder (checked for its files) or leaves it a hub id. */
async function locate(model: string): Promise<{ folder: string; local: boolean }> {
  const path = resolve(model);
  if (await isFolder(path)) {
    const missing = await missingFiles(path);
    if (missing.length > 0)
      throw new EmbedError(
        `model folder ${path} is missing ${missing.join(", ")} (a model folder needs ${MODEL_FOLDER_FILES.join(", ")})`,
      );
    return { folder: path, local: true };
  }
  if (isAbsolute(model) || model.startsWith(".")) throw new EmbedError(`model folder ${path} does not exist`);
  return { folder: join(env.cacheDir ?? "", model), local: false };
}

export async function loadTransformers(model = DEFAULT_TRANSFORMERS_MODEL): Promise<EmbeddingModel> {
  const { folder, local } = await locate(model);
  // An absolute path is never a valid hub id, so transformers reads it as a folder, whatever the folder's name.
  if (local) env.allowRemoteModels = false;
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await pipeline("feature-extraction", local ? folder : model, { dtype: "fp32" });
  } catch (error) {
    const source = local ? `model folder ${folder}` : `"${model}" from the Hugging Face hub`;
    const hint = local ? "" : " (without network, pass a local model folder)";
    throw new EmbedError(`could not load ${source}: ${(error as Error).message}${hint}`, { cause: error });
  }
  const embedBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const output = await extractor(texts, { pooling: "mean", normalize: true });
    const [count = 0, dimension = 0] = output.dims;
    const data = output.data as Float32Array;
    return Array.from({ length: count }, (_, index) =>
      data.slice(index * dimension, (index + 1) * dimension),
    );
  };
  const [probe] = await embedBatch(["dimension probe"]);
  // A hub model downloaded into the cache is versioned by its files there; without them, by its hub id only.
  const version = await contentVersion(folder).catch(() => "hub");
  return {
    id: `transformers:${local ? basename(folder) : model}@${version}`,
    dimension: probe?.length ?? 0,
    runtime: "onnxruntime-node via @huggingface/transformers",
    embedBatch,
  };
}
