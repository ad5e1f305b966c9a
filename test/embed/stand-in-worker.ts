// A stand-in model served through the real worker protocol, so the pool, batching, cache and recovery can be
// tested without a real model. Each vector encodes how it was computed: [batch size, text length, thread id, 1].
// The text "exit" makes the worker thread exit; "throw" makes the model call fail. Its id is "stand-in@1", or
// read at load from the file named by workerData.idFile, standing in for model files that change on disk.
import { readFile } from "node:fs/promises";
import { threadId, workerData } from "node:worker_threads";
import { serveModel } from "../../src/embed/serve-model.ts";

const idFile = (workerData as { idFile?: string } | undefined)?.idFile;

await serveModel(async () => ({
  id: idFile ? await readFile(idFile, "utf8") : "stand-in@1",
  dimension: 4,
  runtime: "stand-in",
  async embedBatch(texts: string[]) {
    if (texts.includes("exit")) process.exit(7);
    if (texts.includes("throw")) throw new Error("stand-in model failure");
    // Stays busy a little so that calls made meanwhile queue up behind this batch.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return texts.map((text) => Float32Array.of(texts.length, text.length, threadId, 1));
  },
}));
