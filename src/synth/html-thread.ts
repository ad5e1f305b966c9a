// The worker thread behind ctx.html: cheerio parses markup of up to a few megabytes, which would block
// the main event loop for tens of milliseconds.
import { parentPort } from "node:worker_threads";
import { selectHtml } from "./capabilities.ts";

parentPort?.on("message", ({ id, json }: { id: number; json: string }) => {
  try {
    parentPort?.postMessage({ id, ok: true, payload: selectHtml(json) });
  } catch (error) {
    parentPort?.postMessage({ id, ok: false, payload: (error as Error).message });
  }
});
