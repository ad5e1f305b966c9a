// The CLI and the service open one index per catalog and data folder: a calibration fitted with
// `switchboard calibrate` is what the service routes with, and a tool put through the API is one
// `switchboard route` finds, while the service runs.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { CLI, call, type Service, startService, tempDir } from "../server/harness.ts";

const catalog = fileURLToPath(new URL("../router/fixtures/small-catalog.json", import.meta.url));
const queries = fileURLToPath(new URL("../router/fixtures/small-queries.jsonl", import.meta.url));
let data: string;
let service: Service | undefined;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

before(async () => {
  data = await tempDir("one-index");
});
after(async () => {
  await service?.stop();
  await rm(data, { recursive: true, force: true });
});

test("calibrate through the CLI, route through the service with that fit", async () => {
  const fitted = await cli([
    "calibrate",
    "--catalog",
    catalog,
    "--data",
    data,
    "--queries",
    queries,
    "--json",
  ]);
  assert.equal(fitted.code, 0, fitted.stderr);
  const fit = JSON.parse(fitted.stdout);
  service = await startService({ catalog, data });
  const routed = await call(service, "POST", "/v1/route", { body: { query: "will it rain in Oslo" } });
  assert.equal(routed.status, 200);
  assert.equal(routed.body.threshold, fit.threshold);
  assert.equal(routed.body.tools[0].name, "get_weather");
});

test("a tool put through the API is routed to by `switchboard route` on the same data folder", async () => {
  assert.ok(service, "the service of the previous test");
  const put = await call(service, "PUT", "/v1/tools/book_parking", {
    body: {
      description: "Reserve a parking space in a garage near an address for a given time.",
      inputSchema: { type: "object" },
      category: "travel",
    },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const routed = await cli([
    "route",
    "--catalog",
    catalog,
    "--data",
    data,
    "--json",
    "reserve a parking space near the stadium",
  ]);
  assert.equal(routed.code, 0, routed.stderr);
  assert.equal(JSON.parse(routed.stdout).tools[0].name, "book_parking");
});
