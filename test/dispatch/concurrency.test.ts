import assert from "node:assert/strict";
import { test } from "node:test";
import type { Tool } from "../../src/catalog/index.ts";
import { Semaphore } from "../../src/dispatch/bulkhead.ts";
import { Dispatcher, type Provider, withContextModifier } from "../../src/dispatch/index.ts";
import { catalog, faultyProvider, readTool, writeTool } from "./harness.ts";

const tick = () => new Promise((r) => setImmediate(r));

/** A stand-in provider that logs when each call starts and ends, yielding to the event loop between. */
function loggingProvider(log: string[]): Provider {
  return {
    id: "logging",
    async invoke(_args, { callId }) {
      log.push(`start ${callId}`);
      await tick();
      await tick();
      log.push(`end ${callId}`);
      return { callId };
    },
  };
}

test("consecutive safe calls run together, an unsafe call runs alone, results come back in call order", async () => {
  const log: string[] = [];
  const provider = loggingProvider(log);
  const dispatcher = new Dispatcher({
    tools: catalog(readTool("read"), writeTool("write")),
    providers: () => [provider],
  });
  const names = ["read", "read", "write", "read", "read"];
  const results = await dispatcher.execute(names.map((name, i) => ({ id: `c${i}`, name, arguments: {} })));
  assert.deepEqual(
    results.map((r) => r.id),
    ["c0", "c1", "c2", "c3", "c4"],
  );
  assert.deepEqual(log, [
    "start c0",
    "start c1",
    "end c0",
    "end c1",
    "start c2",
    "end c2",
    "start c3",
    "start c4",
    "end c3",
    "end c4",
  ]);
});

test("a provider's own check of the arguments decides whether a call is concurrency-safe", async () => {
  const log: string[] = [];
  const provider: Provider = {
    ...loggingProvider(log),
    isConcurrencySafe: (args) => args.mode !== "write",
  };
  const shell = writeTool("shell", { policy: { concurrency: { limit: 4 } } });
  const dispatcher = new Dispatcher({ tools: catalog(shell), providers: () => [provider] });
  await dispatcher.execute([
    { id: "a", name: "shell", arguments: { mode: "read" } },
    { id: "b", name: "shell", arguments: { mode: "read" } },
    { id: "c", name: "shell", arguments: { mode: "write" } },
  ]);
  assert.deepEqual(log.slice(0, 2), ["start a", "start b"]);
  assert.deepEqual(log.slice(4), ["start c", "end c"]);
});

test("the global limit caps calls in flight across tools", async () => {
  const a = faultyProvider({ id: "a", latencyMs: 2 });
  const tools = catalog(readTool("one"), readTool("two"));
  const dispatcher = new Dispatcher({ tools, providers: () => [a], options: { globalConcurrency: 3 } });
  const calls = Array.from({ length: 30 }, (_, i) => ({
    id: `c${i}`,
    name: i % 2 ? "one" : "two",
    arguments: {},
  }));
  const results = await dispatcher.execute(calls);
  assert.ok(results.every((r) => r.status === "completed"));
  assert.equal(a.maxInFlight, 3);
});

test("a tool's own limit applies: writes default to one at a time", async () => {
  const provider = faultyProvider({ latencyMs: 2 });
  const dispatcher = new Dispatcher({ tools: catalog(writeTool("write")), providers: () => [provider] });
  // Two batches at once: each call is alone in its batch, so only the per-tool limit keeps them apart.
  await Promise.all(
    Array.from({ length: 4 }, (_, i) => dispatcher.execute([{ id: `c${i}`, name: "write", arguments: {} }])),
  );
  assert.equal(provider.maxInFlight, 1);
});

test("a catalog concurrency limit overrides the default for the tool's kind", async () => {
  const provider = faultyProvider({ latencyMs: 2 });
  const t: Tool = readTool("search", { policy: { kind: "search", concurrency: { limit: 2 } } });
  const dispatcher = new Dispatcher({ tools: catalog(t), providers: () => [provider] });
  await dispatcher.execute(
    Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, name: "search", arguments: {} })),
  );
  assert.equal(provider.maxInFlight, 2);
});

test("waiting longer than the queue timeout returns a clear error", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const provider: Provider = { id: "slow", invoke: async () => gate.then(() => ({ ok: true })) };
  const dispatcher = new Dispatcher({
    tools: catalog(readTool("slow")),
    providers: () => [provider],
    options: { globalConcurrency: 1, queueTimeoutMs: 20 },
  });
  const rejected: string[] = [];
  dispatcher.on("rejected", (n) => rejected.push(n.class));
  const first = dispatcher.execute([{ id: "holder", name: "slow", arguments: {} }]);
  const [waiting] = await dispatcher.execute([{ id: "waiter", name: "slow", arguments: {} }]);
  assert.equal(waiting?.status, "failed");
  assert.equal(waiting?.error?.class, "queue_timeout");
  assert.match(waiting?.error?.message ?? "", /waited 20 ms for a free slot \(all tools: 1 at once\)/);
  assert.deepEqual(rejected, ["queue_timeout"]);
  release();
  assert.equal((await first)[0]?.status, "completed");
});

test("a call that outlives its timeout is reported as timeout and its signal is aborted", async () => {
  const provider = faultyProvider({ failRate: 1, kinds: ["hang"] });
  const t = writeTool("hangs", { policy: { timeoutMs: 20 } });
  const dispatcher = new Dispatcher({ tools: catalog(t), providers: () => [provider] });
  const [result] = await dispatcher.execute([{ id: "c1", name: "hangs", arguments: {} }]);
  assert.equal(result?.status, "timeout");
  assert.equal(result?.error?.class, "timeout");
  assert.equal(provider.signals[0]?.aborted, true);
});

test("cancelling a batch aborts running calls and skips the rest", async () => {
  const provider = faultyProvider({ failRate: 1, kinds: ["hang"] });
  const dispatcher = new Dispatcher({
    tools: catalog(readTool("r"), writeTool("w")),
    providers: () => [provider],
  });
  const controller = new AbortController();
  const batch = dispatcher.execute(
    [
      { id: "a", name: "r", arguments: {} },
      { id: "b", name: "r", arguments: {} },
      { id: "c", name: "w", arguments: {} },
    ],
    { signal: controller.signal },
  );
  await tick();
  controller.abort();
  const results = await batch;
  assert.deepEqual(
    results.map((r) => r.status),
    ["cancelled", "cancelled", "cancelled"],
  );
  assert.equal(provider.invocations, 2, "the unsafe call after the cancelled group never ran");
  assert.ok(provider.signals.every((s) => s.aborted));
});

test("context modifiers apply after the whole batch, in call order", async () => {
  const seen: Record<string, unknown> = {};
  const provider: Provider = {
    id: "shell",
    async invoke(args, { callId, context }) {
      seen[callId] = context.cwd;
      return args.cd ? withContextModifier({ ok: true }, { cwd: args.cd }) : { ok: true };
    },
  };
  const dispatcher = new Dispatcher({
    tools: catalog(readTool("shell"), writeTool("cd")),
    providers: () => [provider],
  });
  const context: Record<string, unknown> = { cwd: "/" };
  const results = await dispatcher.execute(
    [
      { id: "a", name: "shell", arguments: { cd: "/a" } },
      { id: "b", name: "shell", arguments: {} },
      { id: "c", name: "cd", arguments: { cd: "/c" } },
      { id: "d", name: "shell", arguments: {} },
    ],
    { context },
  );
  assert.deepEqual(seen, { a: "/", b: "/", c: "/", d: "/" }, "no call sees a change made in its batch");
  assert.deepEqual(results[0]?.output, { ok: true }, "the modifier wrapper is not part of the output");
  assert.equal(context.cwd, "/c");
  await dispatcher.execute([{ id: "e", name: "shell", arguments: {} }], { context });
  assert.equal((seen as Record<string, unknown>).e, "/c");
});

test("a tool redefined with another concurrency limit gets slots with that limit, and the first definition again its own", async () => {
  let active = 0;
  let peak = 0;
  const provider: Provider = {
    id: "counting",
    async invoke() {
      active++;
      peak = Math.max(peak, active);
      await tick();
      await tick();
      active--;
      return { ok: true };
    },
  };
  const one = readTool("lookup", { policy: { concurrency: { limit: 1 } } });
  const three = readTool("lookup", { policy: { concurrency: { limit: 3 } } });
  let current = one;
  const dispatcher = new Dispatcher({ tools: { get: () => current }, providers: () => [provider] });
  const threeAtOnce = () =>
    Promise.all(["a", "b", "c"].map((id) => dispatcher.execute([{ id, name: "lookup", arguments: {} }])));
  await threeAtOnce();
  assert.equal(peak, 1);
  current = three;
  peak = 0;
  await threeAtOnce();
  assert.equal(peak, 3);
  current = one;
  peak = 0;
  await threeAtOnce();
  assert.equal(peak, 1);
});

test("the slot queue serves waiting keys in turn, not in arrival order", async () => {
  const slots = new Semaphore(1);
  assert.ok(slots.tryAcquire());
  const served: string[] = [];
  const wait = (key: string, n: number) =>
    slots.acquire(10_000, "test", undefined, key).then(() => {
      served.push(`${key}${n}`);
    });
  const waits = [
    wait("a", 1),
    wait("a", 2),
    wait("a", 3),
    wait("b", 1),
    wait("a", 4),
    wait("c", 1),
    wait("b", 2),
  ];
  for (let i = 0; i < waits.length; i++) {
    slots.release();
    await Promise.resolve();
  }
  await Promise.all(waits);
  assert.deepEqual(served, ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
  assert.equal(slots.queued, 0);
});

test("a retry that waits for a slot gets it, runs, and gives it back", async () => {
  const failedOnce = new Set<string>();
  const provider: Provider = {
    id: "flaky-once",
    async invoke(_args, { callId }) {
      await tick();
      if (!failedOnce.has(callId)) {
        failedOnce.add(callId);
        throw Object.assign(new Error("reset"), { code: "ECONNRESET" });
      }
      return { callId };
    },
  };
  const tool = readTool("once", { policy: { retry: { baseMs: 0, maxMs: 0 } } });
  const dispatcher = new Dispatcher({
    tools: catalog(tool),
    providers: () => [provider],
    options: { globalConcurrency: 1 },
  });
  // Three calls on one slot: each retry queues behind the others' attempts.
  const results = await dispatcher.execute(
    ["a", "b", "c"].map((id) => ({ id, name: "once", arguments: {} })),
  );
  assert.deepEqual(
    results.map((r) => [r.status, r.provenance.attempts]),
    [
      ["completed", 2],
      ["completed", 2],
      ["completed", 2],
    ],
  );
  const [after] = await dispatcher.execute([{ id: "after", name: "once", arguments: {} }]);
  assert.equal(after?.provenance.attempts, 2, "the slot was given back");
});
