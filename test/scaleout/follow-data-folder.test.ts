// One service on its data folder, no shared stores: `switchboard calibrate` run beside it writes a new
// calibration into that folder, and the running service routes with it without a restart.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { CLI, ROOT, startService, writeCatalog } from "../server/harness.ts";
import { call, type Service, sandboxTool, tempDir, waitFor } from "./harness.ts";

const run = promisify(execFile);

const LABELLED = [
  { query: "add 2 and 3", tools: ["add_numbers"] },
  { query: "what is 17 plus 25", tools: ["add_numbers"] },
  { query: "how many words are in this paragraph", tools: ["count_words"] },
  { query: "is it raining in Oslo right now", tools: ["weather_now"] },
  { query: "100 fahrenheit in celsius", tools: ["convert_units"] },
  { query: "tell me a joke about cats", tools: [] },
  { query: "write a poem about the sea", tools: [] },
];

describe("a service on its data folder", () => {
  let catalog: string;
  let service: Service;
  let folder: string;

  before(async () => {
    catalog = await writeCatalog([
      sandboxTool("add_numbers", "Add two numbers and return their sum: plus, total, arithmetic."),
      sandboxTool("count_words", "Count the words and characters of a text: word count, length."),
      sandboxTool("convert_units", "Convert a quantity between units of length, weight or temperature."),
      sandboxTool("weather_now", "The current weather and temperature for a city."),
    ]);
    folder = await tempDir("labelled");
    service = await startService({ catalog });
  });
  after(async () => {
    await service?.stop();
    await Promise.all(
      [folder, service?.data].map((path) => path && rm(path, { recursive: true, force: true })),
    );
  });

  test("takes in a calibration `switchboard calibrate` writes while it runs", async (t) => {
    const route = async () =>
      (await call(service, "POST", "/v1/route", { body: { query: "add 2 and 3", topK: 1 } })).body;
    const before = (await route()).threshold;
    const queries = join(folder, "labelled.jsonl");
    await writeFile(queries, LABELLED.map((line) => JSON.stringify(line)).join("\n"));
    const { stdout } = await run(
      process.execPath,
      [CLI, "calibrate", "--catalog", catalog, "--data", service.data, "--queries", queries, "--json"],
      { cwd: ROOT, env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" } },
    );
    const written = performance.now();
    const fitted = JSON.parse(stdout).threshold as number;
    assert.notEqual(fitted, before, "the fit moves the threshold, so its arrival shows");
    await waitFor(
      "the service routes with the new calibration",
      async () => (await route()).threshold === fitted,
      5000,
    );
    t.diagnostic(
      `threshold ${before} -> ${fitted} within ${Math.round(performance.now() - written)} ms of the command's end`,
    );
  });
});
