// Worker thread entry: loads the model named in workerData and serves embedding batches.
import { workerData } from "node:worker_threads";
import { loadModel } from "./load-model.ts";
import type { ModelSpec } from "./protocol.ts";
import { serveModel } from "./serve-model.ts";

await serveModel(() => loadModel(workerData as ModelSpec));
