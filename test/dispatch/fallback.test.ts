import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import type { Tool } from "../../src/catalog/index.ts";
import { Dispatcher, type FallbackNotice, type Provider } from "../../src/dispatch/index.ts";
import { catalog, faultyProvider, readTool, recordingSleep, writeTool } from "./harness.ts";

// Cache ages are measured with Date.now, so only Date is faked.
beforeEach(() => mock.timers.enable({ apis: ["Date"], now: 1_000_000 }));
afterEach(() => mock.timers.reset());

function setup(t: Tool, providers: Provider[]) {
  const dispatcher = new Dispatcher({
    tools: catalog(t),
    providers: () => providers,
    sleep: recordingSleep().sleep,
  });
  const fallbacks: FallbackNotice[] = [];
  dispatcher.on("fallback", (n) => fallbacks.push(n));
  let n = 0;
  const call = async (args: Record<string, unknown> = {}) =>
    (await dispatcher.execute([{ id: `c${n++}`, name: t.name, arguments: args }]))[0];
  return { dispatcher, fallbacks, call };
}

const cached = (ttlMs: number, staleMs: number) =>
  readTool("quote", { policy: { retry: { retries: 0 }, cache: { ttlMs, staleMs } } });

test("when the primary fails, the secondary answers and provenance says so", async () => {
  const primary = faultyProvider({ id: "primary", failRate: 1, kinds: ["503"] });
  const secondary = faultyProvider({ id: "secondary", answer: () => ({ from: "secondary" }) });
  const { fallbacks, call } = setup(readTool("quote"), [primary, secondary]);
  const result = await call();
  assert.deepEqual(result?.output, { from: "secondary" });
  assert.equal(result?.provenance.provider, "secondary");
  assert.equal(
    result?.provenance.attempts,
    12,
    "eleven attempts on the primary (ten retries), one on the secondary",
  );
  assert.deepEqual(
    fallbacks.map((f) => [f.from, f.to, f.reason]),
    [["primary", "secondary", "connection"]],
  );
});

test("malformed output from the primary (schema drift) falls back to the secondary", async () => {
  const t = readTool("quote", {
    outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
  });
  const primary = faultyProvider({ id: "primary", failRate: 1, kinds: ["malformed"] });
  const secondary = faultyProvider({ id: "secondary", answer: () => ({ price: 3 }) });
  const result = await setup(t, [primary, secondary]).call();
  assert.deepEqual(result?.output, { price: 3 });
  assert.equal(primary.invocations, 1);
});

test("a write tool does not fall back after a failure that may have run it", async () => {
  const primary = faultyProvider({ id: "primary", failRate: 1, kinds: ["ECONNRESET"] });
  const secondary = faultyProvider({ id: "secondary" });
  const result = await setup(writeTool("transfer"), [primary, secondary]).call();
  assert.equal(result?.status, "failed");
  assert.equal(secondary.invocations, 0);
});

test("a fatal error ends the chain", async () => {
  const primary = faultyProvider({ id: "primary", failRate: 1, kinds: ["400"] });
  const secondary = faultyProvider({ id: "secondary" });
  const result = await setup(readTool("quote"), [primary, secondary]).call();
  assert.equal(result?.error?.class, "fatal");
  assert.equal(secondary.invocations, 0);
});

test("providers answering in MCP shape are normalised to the output schema", async () => {
  const t = readTool("quote", {
    outputSchema: { type: "object", properties: { price: { type: "number" } } },
  });
  const mcp: Provider = {
    id: "mcp",
    invoke: async () => ({ content: [{ type: "text", text: '{"price": 7}' }] }),
  };
  const result = await setup(t, [mcp]).call();
  assert.deepEqual(result?.output, { price: 7 });
});

test("a fresh cached answer is served without calling a provider", async () => {
  const provider = faultyProvider({ answer: (args) => ({ symbol: args.symbol, n: provider.invocations }) });
  const { call } = setup(cached(1000, 5000), [provider]);
  await call({ symbol: "ACME", market: "X" });
  mock.timers.tick(500);
  const result = await call({ market: "X", symbol: "ACME" }); // same arguments, other key order
  assert.equal(provider.invocations, 1);
  assert.deepEqual(result?.output, { symbol: "ACME", n: 1 });
  assert.equal(result?.provenance.stale, false);
  assert.equal(result?.provenance.ageMs, 500);
});

test("a stale answer is served at once while a refresh runs", async () => {
  const provider = faultyProvider({ answer: () => ({ n: provider.invocations }) });
  const { call } = setup(cached(1000, 5000), [provider]);
  await call();
  mock.timers.tick(2000);
  const stale = await call();
  assert.deepEqual(stale?.output, { n: 1 });
  assert.equal(stale?.provenance.stale, true);
  assert.equal(stale?.provenance.ageMs, 2000);
  await new Promise((r) => setImmediate(r));
  assert.equal(provider.invocations, 2, "the refresh ran in the background");
  const refreshed = await call();
  assert.deepEqual(refreshed?.output, { n: 2 });
  assert.equal(refreshed?.provenance.stale, false);
});

test("while providers fail, the stale answer keeps being served inside the stale window", async () => {
  const provider = faultyProvider({ answer: () => ({ price: 1 }) });
  const { call } = setup(cached(0, 60_000), [provider]);
  await call();
  provider.failRate = 1;
  mock.timers.tick(30_000);
  const first = await call();
  await new Promise((r) => setImmediate(r)); // the failed refresh
  mock.timers.tick(10_000);
  const second = await call();
  assert.equal(provider.invocations, 3);
  for (const [result, age] of [
    [first, 30_000],
    [second, 40_000],
  ] as const) {
    assert.equal(result?.status, "completed");
    assert.deepEqual(result?.output, { price: 1 });
    assert.equal(result?.provenance.stale, true);
    assert.equal(result?.provenance.ageMs, age);
  }
});

test("a call whose providers all fail gets an answer another call cached meanwhile", async () => {
  let succeed = true;
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const provider: Provider = {
    id: "primary",
    async invoke() {
      if (succeed) {
        succeed = false;
        return { price: 2 };
      }
      await gate;
      throw Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    },
  };
  const t = cached(60_000, 0);
  const { dispatcher, fallbacks } = setup(t, [provider]);
  // The second call misses the cache, waits in the provider, and fails after the first has cached.
  const batch = dispatcher.execute([
    { id: "answers", name: "quote", arguments: { s: 1 } },
    { id: "fails", name: "quote", arguments: { s: 1 } },
  ]);
  await new Promise((r) => setImmediate(r));
  release();
  const [, fails] = await batch;
  assert.equal(fails?.status, "completed");
  assert.deepEqual(fails?.output, { price: 2 });
  assert.match(fails?.provenance.warnings?.[0] ?? "", /every provider failed/);
  assert.equal(fallbacks.at(-1)?.to, "cache");
});

test("past the stale window nothing cached is served", async () => {
  const provider = faultyProvider({ answer: () => ({ price: 1 }) });
  const { call } = setup(cached(0, 60_000), [provider]);
  await call();
  provider.failRate = 1;
  mock.timers.tick(61_000);
  assert.equal((await call())?.status, "failed");
});

test("the tool's degraded output is the last resort, with a warning", async () => {
  const t = readTool("quote", {
    policy: { retry: { retries: 0 }, degraded: { price: null, note: "unavailable" } },
  });
  const provider = faultyProvider({ failRate: 1, kinds: ["ECONNREFUSED"] });
  const result = await setup(t, [provider]).call();
  assert.equal(result?.status, "completed");
  assert.deepEqual(result?.output, { price: null, note: "unavailable" });
  assert.equal(result?.provenance.provider, "degraded");
  assert.match(result?.provenance.warnings?.[0] ?? "", /degraded output served/);
});
