import cliProgress from "cli-progress";
import type { ReadyReport } from "../app/index.ts";

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A progress bar on stderr when it is a terminal and output is for people; silent otherwise. */
export function progressBar(label: string, json: boolean): Progress {
  if (json || !process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {eta_formatted}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** "index loaded (473 vectors, 0 embedded now)", for the ready line. */
/** "embedder use-lite@0.2.0 on onnxruntime-node 1.30.0", and why when a fallback runtime stands in. */
export function describeEmbedder(embedder: ReadyReport["embedder"]): string {
  const on = `embedder ${embedder.id} on ${embedder.runtime}`;
  return embedder.fallback ? `${on}, a fallback: ${embedder.fallback}` : on;
}

export function describeIndex(index: ReadyReport["index"]): string {
  const how = index.seeded ? `${index.action} from the shipped copy` : index.action;
  if (index.dense === "filling")
    return `index ${how}: its dense half fills in the background, routes use BM25 and trigrams until then (see /readyz)`;
  return `index ${how} (${index.entries} vectors, ${index.embedded} embedded now)`;
}
