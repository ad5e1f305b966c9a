// Replicas sharing one Redis: a breaker opened by one fails fast on the others, the per-key rate limit is
// one limit across replicas, a write retried through another replica runs once, and a Redis restart is
// ridden out on local fallbacks. The provider is a stand-in HTTP server on loopback that counts its calls.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { down, up } from "../../scripts/services.ts";
import { writeCatalog } from "../server/harness.ts";
import {
  type Cluster,
  call,
  readyz,
  type Service,
  skipWithoutServices,
  startCluster,
  waitFor,
} from "./harness.ts";

const agent = "agent-key";
const limited = "limited-key";
const RATE_LIMIT = 40;
const env = {
  SWITCHBOARD_MAINTAINER_KEYS: "maintainer-key",
  SWITCHBOARD_AGENT_KEYS: `${agent},${limited}`,
  SWITCHBOARD_RATE_LIMIT: String(RATE_LIMIT),
};

/** Stand-in provider counting calls per path: /broken… always answers 503; anything else answers after 300 ms. */
function startProvider(): Promise<{ server: Server; url: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith("/broken")) {
      response.writeHead(503, { "content-type": "application/json" }).end('{"error":"down"}');
      return;
    }
    setTimeout(
      () => response.writeHead(200, { "content-type": "application/json" }).end('{"placed":true}'),
      300,
    );
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits }),
    ),
  );
}

const catalogTools = (provider: string) => [
  {
    name: "inventory_lookup",
    description: "Look up stock levels of a product in the warehouse inventory.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: { sku: { type: "string" } } },
    binding: { type: "http", method: "GET", url: `${provider}/broken` },
    policy: {
      retry: { retries: 0 },
      breaker: { minCalls: 2, windowSize: 2, failureRate: 0.5, cooldownMs: 60_000 },
    },
  },
  {
    name: "pricing_feed",
    description: "Fetch live prices of commodities from the pricing feed.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: { item: { type: "string" } } },
    binding: { type: "http", method: "GET", url: `${provider}/broken-feed` },
    policy: {
      retry: { retries: 0 },
      breaker: { minCalls: 2, windowSize: 2, failureRate: 0.5, cooldownMs: 1000 },
    },
  },
  {
    name: "exchange_rate",
    description: "Current exchange rate between two currencies.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: { pair: { type: "string" } } },
    binding: { type: "http", method: "GET", url: `${provider}/rates` },
    policy: { cache: { ttlMs: 60_000, staleMs: 60_000 } },
  },
  {
    name: "place_order",
    description: "Place a purchase order for a product with a supplier.",
    annotations: { readOnlyHint: false },
    inputSchema: { type: "object", properties: { sku: { type: "string" } } },
    binding: { type: "http", method: "POST", url: `${provider}/orders` },
    policy: { retry: { retries: 0 } },
  },
  {
    name: "add_numbers",
    description: "Add two numbers and return their sum.",
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
    binding: {
      type: "sandbox",
      code: "async function add_numbers(args) { return { sum: args.a + args.b }; }",
    },
  },
];

const execute = async (service: Service, id: string, name: string, args: object = {}) =>
  (
    await call(service, "POST", "/v1/execute", {
      key: agent,
      body: { calls: [{ id, name, arguments: args }] },
    })
  ).body.results?.[0];

describe("replicas sharing Redis", { skip: skipWithoutServices() }, () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let cluster: Cluster;
  let a: Service;
  let b: Service;

  before(async () => {
    provider = await startProvider();
    cluster = await startCluster(await writeCatalog(catalogTools(provider.url)), env, 2);
    [a, b] = cluster.replicas as [Service, Service];
  });
  after(async () => {
    await cluster?.stop();
    provider?.server.close();
  });

  test("a breaker opened through A fails fast on B without reaching the provider", async (t) => {
    for (const id of ["b1", "b2"]) assert.equal((await execute(a, id, "inventory_lookup")).status, "failed");
    const breakersOfA = (await call(a, "GET", "/v1/breakers", { key: agent })).body;
    assert.match(JSON.stringify(breakersOfA), /"state":"open"/);
    const heldMs = await waitFor(
      "B holds the breaker",
      async () => ((await readyz(b)).body.stores?.heldBreakers ?? []).length > 0,
      5000,
    );
    const before = provider.hits.get("/broken");
    const onB = await execute(b, "b3", "inventory_lookup");
    assert.equal(onB.status, "failed");
    assert.match(onB.error.message, /circuit/);
    assert.equal(provider.hits.get("/broken"), before, "B did not call the provider");
    t.diagnostic(
      `B held the breaker ${heldMs} ms after A's answer; B's call failed fast: ${onB.error.message}`,
    );
  });

  test("after the cooldown only the replica that opened the breaker probes", async () => {
    for (const id of ["p1", "p2"]) assert.equal((await execute(a, id, "pricing_feed")).status, "failed");
    await waitFor(
      "B holds the breaker",
      async () =>
        ((await readyz(b)).body.stores?.heldBreakers ?? []).some((held: string) =>
          held.startsWith("pricing_feed"),
        ),
      5000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const opened = provider.hits.get("/broken-feed") ?? 0;
    const [probe, ...onB] = await Promise.all([
      execute(a, "p3", "pricing_feed"),
      ...["p4", "p5", "p6"].map((id) => execute(b, id, "pricing_feed")),
    ]);
    assert.equal(probe.status, "failed");
    for (const result of onB) assert.match(result.error.message, /circuit/);
    assert.equal(provider.hits.get("/broken-feed"), opened + 1, "one probe, from A only");
  });

  test("the per-key rate limit is one limit across replicas", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++)
      statuses.push((await call(i % 2 === 0 ? a : b, "GET", "/v1/tools", { key: limited })).status);
    assert.equal(statuses.filter((s) => s === 200).length, RATE_LIMIT);
    assert.equal(statuses.filter((s) => s === 429).length, 10);
  });

  test("a write retried through another replica runs once", async () => {
    const first = execute(a, "order-1", "place_order", { sku: "x1" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const retried = execute(b, "order-1", "place_order", { sku: "x1" });
    const [one, two] = await Promise.all([first, retried]);
    const later = await execute(b, "order-1", "place_order", { sku: "x1" });
    assert.equal(provider.hits.get("/orders"), 1);
    for (const result of [one, two, later]) {
      assert.equal(result.status, "completed");
      assert.deepEqual(result.output, one.output);
    }
  });

  test("an answer cached through A is served by B without calling the provider", async () => {
    const first = await execute(a, "c1", "exchange_rate", { pair: "EURUSD" });
    assert.equal(first.status, "completed");
    // Pub/sub delivery takes a few milliseconds; a generous pause keeps the test independent of load.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const onB = await execute(b, "c2", "exchange_rate", { pair: "EURUSD" });
    assert.equal(onB.status, "completed");
    assert.deepEqual(onB.output, first.output);
    assert.equal(provider.hits.get("/rates"), 1);
  });

  test("Redis restart: local fallback, shown in /readyz and /metrics, then recovery", async (t) => {
    await down(cluster.folder, "redis");
    await waitFor(
      "A reports redis down",
      async () => (await readyz(a)).body.stores?.redis === "down",
      10_000,
    );
    const metrics = (await call(a, "GET", "/metrics", { key: agent })).body as string;
    assert.match(metrics, /switchboard_shared_store_up\{store="redis"\} 0/);
    assert.equal((await execute(a, "r1", "add_numbers", { a: 2, b: 3 })).output.sum, 5);
    assert.equal(
      (await call(a, "POST", "/v1/route", { key: agent, body: { query: "add two numbers" } })).status,
      200,
    );
    assert.equal((await execute(b, "order-2", "place_order", { sku: "x2" })).status, "completed");

    await up(cluster.folder, "redis");
    const backMs = await waitFor(
      "A and B report redis up",
      async () =>
        (await readyz(a)).body.stores?.redis === "up" && (await readyz(b)).body.stores?.redis === "up",
      10_000,
    );
    const ordersBefore = provider.hits.get("/orders");
    await execute(a, "order-3", "place_order", { sku: "x3" });
    await execute(b, "order-3", "place_order", { sku: "x3" });
    assert.equal(provider.hits.get("/orders"), (ordersBefore ?? 0) + 1, "idempotency is shared again");
    t.diagnostic(`both replicas back on Redis ${backMs} ms after it started`);
  });
});
