import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, mock, test } from "node:test";
import { setImmediate } from "node:timers/promises";
import type { BreakerPolicy, Tool } from "../../src/catalog/index.ts";
import { Dispatcher, type Provider } from "../../src/dispatch/index.ts";
import { FileStore } from "../../src/store/index.ts";
import { catalog, faultyProvider, readTool } from "./harness.ts";

// Breaker cooldowns are measured with Date.now (inside cockatiel), so only Date is faked.
beforeEach(() => mock.timers.enable({ apis: ["Date"], now: 1_000_000 }));
afterEach(() => mock.timers.reset());

const breaker: BreakerPolicy = {
  failureRate: 0.5,
  minCalls: 4,
  windowSize: 4,
  cooldownMs: 1000,
  halfOpenProbes: 1,
};

function flakyTool(extra: BreakerPolicy = {}): Tool {
  return readTool("flaky", { policy: { retry: { retries: 0 }, breaker: { ...breaker, ...extra } } });
}

function setup(providers: Provider[], t = flakyTool(), store?: FileStore) {
  const dispatcher = new Dispatcher({
    tools: catalog(t),
    providers: () => providers,
    ...(store ? { store } : {}),
  });
  const changes: string[] = [];
  dispatcher.on("breaker", (c) => changes.push(`${c.provider}:${c.state}`));
  let n = 0;
  const call = async () => (await dispatcher.execute([{ id: `c${n++}`, name: t.name, arguments: {} }]))[0];
  return { dispatcher, changes, call };
}

test("the breaker stays closed below the minimum number of calls", async () => {
  const provider = faultyProvider({ failRate: 1 });
  const { dispatcher, call } = setup([provider]);
  for (let i = 0; i < 3; i++) await call();
  assert.equal(dispatcher.breakers()[0]?.state, "closed");
});

test("the breaker opens when the failure rate over the window reaches the threshold", async () => {
  const provider = faultyProvider({ failRate: 1 });
  const { changes, call } = setup([provider]);
  for (let i = 0; i < 4; i++) await call();
  assert.deepEqual(changes, ["primary:open"]);
  const result = await call();
  assert.equal(result?.error?.class, "breaker_open");
  assert.equal(provider.invocations, 4, "an open breaker does not call the provider");
  assert.equal(result?.provenance.breakers.primary, "open");
});

test("after the cooldown a half-open breaker admits one probe and fails the rest fast", async () => {
  const provider = faultyProvider({ failRate: 1 });
  const { dispatcher, call } = setup([provider]);
  for (let i = 0; i < 4; i++) await call();
  mock.timers.tick(1000);
  provider.failRate = 0;
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const original = provider.invoke;
  provider.invoke = async (args, options) => {
    await gate;
    return original(args, options);
  };
  const probe = call();
  const second = await call();
  assert.equal(second?.error?.class, "breaker_open");
  assert.equal(dispatcher.breakers()[0]?.state, "half_open");
  release();
  assert.equal((await probe)?.status, "completed");
  assert.equal(dispatcher.breakers()[0]?.state, "closed");
});

test("a failed probe re-opens the breaker", async () => {
  const provider = faultyProvider({ failRate: 1 });
  const { changes, call } = setup([provider]);
  for (let i = 0; i < 4; i++) await call();
  mock.timers.tick(1000);
  await call();
  assert.deepEqual(changes, ["primary:open", "primary:half_open", "primary:open"]);
});

test("a successful probe closes the breaker", async () => {
  const provider = faultyProvider({ failRate: 1 });
  const { changes, call } = setup([provider]);
  for (let i = 0; i < 4; i++) await call();
  mock.timers.tick(1000);
  provider.failRate = 0;
  assert.equal((await call())?.status, "completed");
  assert.deepEqual(changes, ["primary:open", "primary:half_open", "primary:closed"]);
});

test("a time-based window opens the breaker too", async () => {
  const provider = faultyProvider({ failRate: 1 });
  const { dispatcher, call } = setup([provider], flakyTool({ windowMs: 10_000 }));
  for (let i = 0; i < 4; i++) await call();
  assert.equal(dispatcher.breakers()[0]?.state, "open");
});

test("input errors do not count against the provider", async () => {
  const provider = faultyProvider({ failRate: 1, kinds: ["400"] });
  const { dispatcher, call } = setup([provider]);
  for (let i = 0; i < 6; i++) await call();
  assert.equal(dispatcher.breakers()[0]?.state, "closed");
});

test("a tool's own error rules decide what counts against its breaker", async () => {
  const provider = faultyProvider({ failRate: 1, kinds: ["503"] });
  const t = readTool("flaky", { policy: { retry: { retries: 0 }, breaker, errors: { fatal: [503] } } });
  const { dispatcher, call } = setup([provider], t);
  for (let i = 0; i < 6; i++) await call();
  assert.equal(dispatcher.breakers()[0]?.state, "closed");
});

test("each provider in a fallback chain has its own breaker", async () => {
  const primary = faultyProvider({ id: "primary", failRate: 1 });
  const secondary = faultyProvider({ id: "secondary" });
  const { call } = setup([primary, secondary]);
  for (let i = 0; i < 4; i++) await call();
  const result = await call();
  assert.equal(result?.status, "completed");
  assert.equal(result?.provenance.provider, "secondary");
  assert.deepEqual(result?.provenance.breakers, { primary: "open", secondary: "closed" });
});

test("an open breaker is persisted and still open after a restart", async () => {
  const store = new FileStore(await mkdtemp(join(tmpdir(), "sb-breakers-")));
  const provider = faultyProvider({ failRate: 1 });
  const first = setup([provider], flakyTool(), store);
  for (let i = 0; i < 4; i++) await first.call();
  await first.dispatcher.close();

  const restarted = setup([provider], flakyTool(), store);
  await restarted.dispatcher.ready();
  const restored = restarted.dispatcher.breakers();
  assert.deepEqual(
    restored.map(({ since: _, ...breaker }) => breaker),
    [{ tool: "flaky", provider: "primary", state: "open" }],
  );
  assert.equal(typeof restored[0]?.since, "number", "when it opened is kept");
  const result = await restarted.call();
  assert.equal(result?.error?.class, "breaker_open");
  assert.equal(provider.invocations, 4);
  mock.timers.tick(1000);
  provider.failRate = 0;
  assert.equal((await restarted.call())?.status, "completed", "the cooldown still ends after a restart");
});

test("a call that fails after another call opened the breaker reports its own error, not breaker_open", async () => {
  // A stand-in provider whose every invocation waits until the test settles it.
  const pending: { reject(error: Error): void }[] = [];
  const provider: Provider = {
    id: "primary",
    invoke: () => new Promise((_, reject) => pending.push({ reject })),
  };
  const { changes, call } = setup([provider]);
  const reset = () => Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
  const first = [call(), call(), call(), call()];
  await setImmediate();
  assert.equal(pending.length, 4);
  for (const p of pending.slice(0, 3)) p.reject(reset());
  await Promise.all(first.slice(0, 3));
  const fifth = call();
  await setImmediate();
  pending[4]?.reject(reset());
  assert.equal((await fifth)?.error?.class, "connection");
  assert.deepEqual(changes, ["primary:open"], "four failures in a window of four open the breaker");
  // The fourth call started while the circuit was closed and was still running when it opened.
  pending[3]?.reject(reset());
  const late = await first[3];
  assert.equal(late?.error?.class, "connection");
  assert.equal(late?.provenance.breakers.primary, "open");
  assert.equal((await call())?.error?.class, "breaker_open");
  assert.equal(pending.length, 5, "the open breaker does not call the provider");
});
