// Replicas sharing one PostgreSQL follow each other's learned queries and calibrations as they follow the
// catalog, and keep following while their LISTEN connection is down: the change log is polled.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { openIndex } from "../../src/app/catalog-index.ts";
import { ToolRegistry } from "../../src/catalog/index.ts";
import { PgStore, sharedEmbeddings } from "../../src/store/index.ts";
import { listenerName } from "../../src/store/pg-listener.ts";
import { writeCatalog } from "../server/harness.ts";
import {
  type Cluster,
  call,
  readyz,
  type Service,
  sandboxTool,
  skipWithoutServices,
  startCluster,
  tempDir,
  topTool,
  waitFor,
} from "./harness.ts";

const maintainer = "maintainer-key";
const agent = "agent-key";
const env = { SWITCHBOARD_MAINTAINER_KEYS: maintainer, SWITCHBOARD_AGENT_KEYS: agent };

const TOOLS = [
  sandboxTool("add_numbers", "Add two numbers and return their sum: plus, total, arithmetic."),
  sandboxTool("count_words", "Count the words and characters of a text: word count, length."),
  sandboxTool("convert_units", "Convert a quantity between units of length, weight or temperature."),
  sandboxTool("weather_now", "The current weather and temperature for a city."),
  sandboxTool("translate_text", "Translate a text from one language into another."),
  sandboxTool("send_reminder", "Schedule a reminder message for a later time."),
];

const route = async (service: Service, query: string, topK = 1) =>
  (await call(service, "POST", "/v1/route", { key: agent, body: { query, topK } })).body;

describe("replicas following learned queries, calibrations and the change log", {
  skip: skipWithoutServices(),
}, () => {
  let catalog: string;
  let cluster: Cluster;
  let a: Service;
  let b: Service;

  /** A tool put through A, then deleted through A: how long each took to reach B. */
  async function putAndDeleteReachB(): Promise<{ putMs: number; deleteMs: number }> {
    const query = "what is the share price of ACME on the stock exchange";
    assert.notEqual(await topTool(b, agent, query), "stock_price");
    const put = await call(a, "PUT", "/v1/tools/stock_price", {
      key: maintainer,
      body: sandboxTool(
        "stock_price",
        "Share price of a listed company on the stock exchange, by ticker symbol.",
      ),
    });
    assert.equal(put.status, 200);
    const putMs = await waitFor(
      "put routable on B",
      async () => (await topTool(b, agent, query)) === "stock_price",
      5000,
    );
    assert.equal((await call(a, "DELETE", "/v1/tools/stock_price", { key: maintainer })).status, 200);
    const deleteMs = await waitFor(
      "delete seen by B",
      async () => (await call(b, "GET", "/v1/tools/stock_price", { key: agent })).status === 404,
      5000,
    );
    return { putMs, deleteMs };
  }

  before(async () => {
    catalog = await writeCatalog(TOOLS);
    cluster = await startCluster(catalog, env, 2);
    [a, b] = cluster.replicas as [Service, Service];
  });
  after(() => cluster?.stop());

  test("a maintainer's feedback through A changes routing on B", async (t) => {
    const query = "how long will my trip of 40 miles feel in kilometres";
    const before = (await route(b, query, 6)).tools.map((x: { name: string }) => x.name);
    // The tool the replicas rank second before learning; three confirmed queries make it first.
    const taught = before[1] as string;
    const answer = await call(a, "POST", "/v1/feedback", {
      key: maintainer,
      body: {
        pairs: [
          { query, tool: taught },
          { query: "my trip of 40 miles in kilometres", tool: taught },
          { query: "how long is 40 miles in kilometres", tool: taught },
        ],
      },
    });
    const answered = performance.now();
    assert.equal(answer.status, 200);
    assert.equal(answer.body.learned, 3);
    assert.equal(await topTool(a, agent, query), taught, "the recording replica routes to the taught tool");
    await waitFor("learned queries used on B", async () => (await topTool(b, agent, query)) === taught, 5000);
    t.diagnostic(
      `feedback through A changed B's top tool (${before[0]} -> ${taught}) ${Math.round(performance.now() - answered)} ms after A's answer`,
    );
  });

  test("a calibration fitted through the shared store is used by every replica", async (t) => {
    const query = "add 2 and 3";
    const thresholdBefore = (await route(b, query)).threshold;
    // What `switchboard calibrate` does with the shared database: the same index, fitted and stored.
    const store = await PgStore.open({ url: cluster.urls.databaseUrl, root: await tempDir("calibrate") });
    try {
      const registry = await ToolRegistry.open({ store, catalog });
      const opened = await openIndex({
        store,
        catalog,
        tools: registry.list(),
        embedder: { kind: "use-lite" },
        indexEmbedder: (embedder) => sharedEmbeddings(embedder, store.pool),
      });
      try {
        const fit = await opened.router.calibrate([
          { query: "add 2 and 3", tools: ["add_numbers"] },
          { query: "what is 17 plus 25", tools: ["add_numbers"] },
          { query: "how many words are in this paragraph", tools: ["count_words"] },
          { query: "is it raining in Oslo right now", tools: ["weather_now"] },
          { query: "say this in Spanish: good morning", tools: ["translate_text"] },
          { query: "remind me to call mum at six", tools: ["send_reminder"] },
          { query: "100 fahrenheit in celsius", tools: ["convert_units"] },
          { query: "tell me a joke about cats", tools: [] },
          { query: "who won the football world cup in 1998", tools: [] },
          { query: "write a poem about the sea", tools: [] },
        ]);
        const stored = performance.now();
        assert.notEqual(fit.threshold, thresholdBefore, "the fit moves the threshold, so its arrival shows");
        for (const replica of [b, a])
          await waitFor(
            "calibration used",
            async () => (await route(replica, query)).threshold === fit.threshold,
            5000,
          );
        t.diagnostic(
          `threshold ${thresholdBefore} -> ${fit.threshold} on B and A within ${Math.round(performance.now() - stored)} ms of the calibration being stored`,
        );
      } finally {
        await opened.close();
      }
    } finally {
      await store.close();
    }
  });

  test("with NOTIFY silenced, as behind a transaction-pooling PgBouncer, B polls a put and a delete", async (t) => {
    const admin = new pg.Client({ connectionString: cluster.urls.databaseUrl });
    await admin.connect();
    const { rows } = await admin.query<{ def: string }>(
      "select pg_get_functiondef('switchboard_data_notify'::regproc) as def",
    );
    const original = (rows[0] as { def: string }).def;
    const silenced = original.replace(/perform pg_notify\([^;]*\);/, "");
    assert.notEqual(silenced, original);
    await admin.query(silenced);
    try {
      const { putMs, deleteMs } = await putAndDeleteReachB();
      t.diagnostic(`without notifications: put routable on B after ${putMs} ms, delete after ${deleteMs} ms`);
    } finally {
      await admin.query(original);
      await admin.end();
    }
  });

  test("with its listener killed over and over, B still sees a put and a delete through A", async (t) => {
    const killer = new pg.Client({ connectionString: cluster.urls.databaseUrl });
    await killer.connect();
    let killing = true;
    let kills = 0;
    const loop = (async () => {
      while (killing) {
        const { rows } = await killer.query<{ killed: boolean }>(
          "select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1",
          [listenerName(b.child.pid as number)],
        );
        kills += rows.filter((row) => row.killed).length;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      await waitFor("B's listener killed", async () => kills > 0, 5000);
      const { putMs, deleteMs } = await putAndDeleteReachB();
      t.diagnostic(
        `listener killed ${kills} times; put routable on B after ${putMs} ms, delete after ${deleteMs} ms`,
      );
    } finally {
      killing = false;
      await loop;
      await killer.end();
    }
    await waitFor("B listening again", async () => (await readyz(b)).body.stores?.postgres === "up", 5000);
  });
});
