// The CLI on the service's configuration: with SWITCHBOARD_DATABASE_URL its commands open the PostgreSQL
// store through the composition root, not their data folder, so a tool it puts is routable on a running
// replica and a calibration it fits is the one a running replica uses.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { fixtureTools } from "../server/fixture-tools.ts";
import { CLI, ROOT, writeCatalog } from "../server/harness.ts";
import {
  type Cluster,
  call,
  type Service,
  skipWithoutServices,
  startCluster,
  tempDir,
  waitFor,
} from "./harness.ts";

const run = promisify(execFile);
const agent = "agent-key";
const env = { SWITCHBOARD_MAINTAINER_KEYS: "maintainer-key", SWITCHBOARD_AGENT_KEYS: agent };

const labelled = [
  { query: "add 3 and 4", tools: ["add_numbers"] },
  { query: "what is 12 plus 30", tools: ["add_numbers"] },
  { query: "the sum of 5 and 9", tools: ["add_numbers"] },
  { query: "how many words are in this text", tools: ["count_words"] },
  { query: "count the characters of my essay", tools: ["count_words"] },
  { query: "word count of this paragraph", tools: ["count_words"] },
  { query: "tell me a joke about cats", tools: [] },
  { query: "what is the capital of France", tools: [] },
  { query: "book a flight to Rome next week", tools: [] },
  { query: "play some jazz music", tools: [] },
];

const routed = async (service: Service, query: string) =>
  (await call(service, "POST", "/v1/route", { key: agent, body: { query, topK: 1 } })).body;

describe("the CLI on the shared stores", { skip: skipWithoutServices() }, () => {
  let cluster: Cluster;
  let catalog: string;
  let a: Service;
  let folder: string;

  /** `switchboard …` as an operator runs it beside the replicas: same catalog and URLs, its own data folder. */
  const cli = async (...args: string[]) => {
    const data = await tempDir("cli-data");
    const { stdout } = await run(process.execPath, [CLI, ...args, "--json"], {
      cwd: ROOT,
      env: {
        ...process.env,
        SWITCHBOARD_DATABASE_URL: cluster.urls.databaseUrl,
        SWITCHBOARD_REDIS_URL: cluster.urls.redisUrl,
        SWITCHBOARD_CATALOG: catalog,
        SWITCHBOARD_DATA: data,
        SWITCHBOARD_LOG_LEVEL: "warn",
      },
    });
    return { answer: JSON.parse(stdout), data };
  };

  before(async () => {
    const sandboxTools = fixtureTools("http://127.0.0.1:9").filter(
      (t) => (t as { binding: { type: string } }).binding.type === "sandbox",
    );
    catalog = await writeCatalog(sandboxTools);
    cluster = await startCluster(catalog, env, 1);
    [a] = cluster.replicas as [Service];
    folder = await tempDir("cli-files");
  });
  after(async () => {
    await cluster?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  test("a tool put by `switchboard tools put` is routable on a running replica", async (t) => {
    const query = "what is the share price of ACME on the stock exchange";
    // Routed once before, so the replica's query embedding is cached and the wait times the propagation.
    assert.notEqual((await routed(a, query)).tools?.[0]?.name, "stock_price");
    const file = join(folder, "stock_price.json");
    await writeFile(
      file,
      JSON.stringify({
        name: "stock_price",
        description: "Share price of a listed company on the stock exchange, by ticker symbol.",
        inputSchema: { type: "object", properties: { ticker: { type: "string" } } },
        binding: { type: "sandbox", code: "async function stock_price(args) { return { price: 1 }; }" },
      }),
    );
    const put = await cli("tools", "put", file);
    assert.deepEqual(put.answer.tools, [{ name: "stock_price", version: 1 }]);
    const putMs = await waitFor(
      "the CLI's put routable on the replica",
      async () => (await routed(a, query)).tools?.[0]?.name === "stock_price",
      5000,
    );
    // Written to PostgreSQL, not to the command's own data folder.
    assert.deepEqual(await readdir(put.data), []);

    const deleted = await cli("tools", "delete", "stock_price");
    assert.deepEqual(deleted.answer, { deleted: "stock_price" });
    const deleteMs = await waitFor(
      "the CLI's delete seen by the replica",
      async () => (await call(a, "GET", "/v1/tools/stock_price", { key: agent })).status === 404,
      5000,
    );
    t.diagnostic(`CLI put routable after ${putMs} ms, CLI delete seen after ${deleteMs} ms`);
  });

  test("a calibration fitted by `switchboard calibrate` is the one a running replica uses", async (t) => {
    const before = (await routed(a, "add 2 and 2")).threshold;
    const queries = join(folder, "queries.jsonl");
    await writeFile(queries, labelled.map((l) => JSON.stringify(l)).join("\n"));
    const { answer: fit } = await cli("calibrate", "--queries", queries);
    assert.equal(typeof fit.threshold, "number");
    // Otherwise the check below could not tell the fitted calibration from the default.
    assert.notEqual(fit.threshold, before);
    const ms = await waitFor(
      "the CLI's calibration in use on the replica",
      async () => (await routed(a, "add 2 and 2")).threshold === fit.threshold,
      5000,
    );
    t.diagnostic(`CLI calibration in use on the running replica ${ms} ms after the command ended`);
  });
});
