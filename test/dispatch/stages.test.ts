// Each pipeline stage on its own, with a stand-in `next` that answers or fails as the test says.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Tool } from "../../src/catalog/index.ts";
import { BreakerRegistry } from "../../src/dispatch/breaker.ts";
import { Semaphore } from "../../src/dispatch/bulkhead.ts";
import { ResultCache } from "../../src/dispatch/cache.ts";
import { Call } from "../../src/dispatch/call.ts";
import type { DispatchError } from "../../src/dispatch/errors.ts";
import { KeyBudgets } from "../../src/dispatch/key-budgets.ts";
import { parseOptions, resolvePolicy } from "../../src/dispatch/options.ts";
import { Pending } from "../../src/dispatch/pending.ts";
import type { Next } from "../../src/dispatch/pipeline.ts";
import { RetryBudget } from "../../src/dispatch/retry-budget.ts";
import { ArgumentCheck } from "../../src/dispatch/stages/arguments.ts";
import { Breaker } from "../../src/dispatch/stages/breaker.ts";
import { CachedAnswers } from "../../src/dispatch/stages/cache.ts";
import { DegradedOutput } from "../../src/dispatch/stages/degraded.ts";
import { FallbackChain } from "../../src/dispatch/stages/fallback.ts";
import { ProviderCall } from "../../src/dispatch/stages/provider.ts";
import { Retry } from "../../src/dispatch/stages/retry.ts";
import { RetryBudgetDeposit } from "../../src/dispatch/stages/retry-budget.ts";
import { Slots } from "../../src/dispatch/stages/slots.ts";
import { Timeout } from "../../src/dispatch/stages/timeout.ts";
import { estimateTokens } from "../../src/dispatch/tokens.ts";
import type { Provider } from "../../src/dispatch/types.ts";
import { faultError, readTool, writeTool } from "./harness.ts";

const options = parseOptions({});
const tool = readTool("t", {
  inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
});
const newCall = (args: Record<string, unknown> = { n: 1 }, t: Tool = tool) =>
  new Call({ id: `c${Math.random()}`, name: t.name, arguments: args }, t, undefined, {}, "");
const answering =
  (output: unknown): Next =>
  (call) =>
    Pending.of(call.answer(output));
const failing =
  (error: unknown): Next =>
  (call) =>
    Pending.of(call.fail(error));
/** A `next` that fails with each error in turn, then answers. */
function script(...errors: unknown[]) {
  const next: Next & { calls: number } = Object.assign(
    (call: Call) => {
      next.calls++;
      call.attempts++;
      const error = errors.shift();
      return Pending.of(error === undefined ? call.answer("ok") : call.fail(error));
    },
    { calls: 0 },
  );
  return next;
}
const provider: Provider = { id: "p", invoke: async () => "ok" };

test("arguments: a mismatch fails the call with the fields named and nothing runs", async () => {
  const rejected: string[] = [];
  const stage = new ArgumentCheck(tool, (_, e) => rejected.push(e.message));
  const bad = await stage.execute(newCall({ n: "x" }), failing(new Error("must not run"))).promise();
  assert.equal(bad.outcome, "failed");
  assert.equal((bad.failure as DispatchError).class, "schema");
  assert.equal(rejected.length, 1);
  const good = await stage.execute(newCall(), answering(1)).promise();
  assert.equal(good.output, 1);
});

test("degraded: covers a provider failure, never an input error", async () => {
  const fallbacks: string[] = [];
  const stage = new DegradedOutput(tool, { fallback: true }, "p", (n) => fallbacks.push(n.to));
  const served = await stage.execute(newCall(), failing(faultError("ECONNRESET"))).promise();
  assert.deepEqual(served.output, { fallback: true });
  assert.equal(served.provider, "degraded");
  assert.match(served.warnings?.[0] ?? "", /degraded output served/);
  const fatal = await stage.execute(newCall(), failing(faultError("400"))).promise();
  assert.equal(fatal.outcome, "failed");
  assert.deepEqual(fallbacks, ["degraded"]);
});

test("cache: a miss runs and stores, a hit skips the rest, a failure gets the stale answer", async () => {
  let now = 0;
  const cache = new ResultCache(10, () => now);
  const stage = new CachedAnswers(tool, cache, { ttlMs: 100, staleMs: 1000 }, "p", () => {});
  const first = await stage
    .execute(newCall(), (call) => {
      call.provider = "p";
      return Pending.of(call.answer("fresh"));
    })
    .promise();
  assert.equal(first.output, "fresh");
  const hit = await stage.execute(newCall(), failing(new Error("must not run"))).promise();
  assert.equal(hit.output, "fresh");
  assert.equal(hit.stale, false);
  now = 500;
  const other = newCall({ n: 2 });
  const failed = await stage.execute(other, failing(faultError("ECONNRESET"))).promise();
  assert.equal(failed.outcome, "failed", "nothing cached for these arguments");
  cache.set(cache.key(tool, { n: 3 }), "old", "p", 100, 1000);
  now = 700;
  const servedStale = await stage.execute(newCall({ n: 3 }), failing(faultError("ECONNRESET"))).promise();
  assert.equal(servedStale.output, "old");
  assert.equal(servedStale.stale, true);
});

test("slots: a call beyond the limit waits for the one before it, and gives up at the queue timeout", async () => {
  const slots = new Semaphore(1);
  const global = new Semaphore(10);
  const timedOut: string[] = [];
  const stage = new Slots("t", slots, global, { queueTimeoutMs: 50, deadlineMs: 1000 }, (c) =>
    timedOut.push(c.id),
  );
  const hold = new Pending();
  const firstCall = newCall();
  const first = stage.execute(firstCall, () => hold);
  assert.equal(slots.inFlight, 1);
  const second = stage.execute(newCall(), answering("second"));
  const waited = await second.promise();
  assert.equal(waited.outcome, "failed");
  assert.equal((waited.failure as DispatchError).class, "queue_timeout");
  assert.equal(timedOut.length, 1);
  const third = stage.execute(newCall(), answering("third"));
  hold.settle(firstCall.answer("first"));
  assert.equal((await first.promise()).output, "first");
  assert.equal((await third.promise()).output, "third");
  assert.equal(slots.inFlight, 0);
  assert.equal(global.inFlight, 0);
});

test("fallback chain: the next provider answers after a provider fault; an input error ends the chain", async () => {
  const policy = resolvePolicy(tool, options);
  const notices: string[] = [];
  const stage = new FallbackChain(
    "t",
    [
      { id: "a", run: failing(faultError("ECONNRESET")) },
      { id: "b", run: answering("from b") },
    ],
    policy,
    undefined,
    (n) => notices.push(`${n.from}->${n.to}:${n.reason}`),
  );
  const call = await stage.execute(newCall(), failing(new Error("unused"))).promise();
  assert.equal(call.output, "from b");
  assert.deepEqual(notices, ["a->b:connection"]);
  const fatal = new FallbackChain(
    "t",
    [
      { id: "a", run: failing(faultError("400")) },
      { id: "b", run: answering("never") },
    ],
    policy,
    undefined,
    () => {},
  );
  assert.equal((await fatal.execute(newCall(), failing(new Error("unused"))).promise()).outcome, "failed");
});

test("retry budget: each call through the stage adds to the budget", async () => {
  const budget = new RetryBudget({ ratio: 0.5, capacity: 10, perSecond: 0 }, () => 0);
  while (budget.withdraw());
  const stage = new RetryBudgetDeposit(budget, new KeyBudgets(options.keyRetryBudget));
  for (let i = 0; i < 4; i++) await stage.execute(newCall(), answering(1)).promise();
  assert.equal(budget.tokens, 2);
});

test("retry: transient faults are retried within the budget; writes, caller failures and a spent budget are not", async () => {
  const delays: number[] = [];
  const deps = {
    sleep: async (ms: number) => void delays.push(ms),
    random: () => 0.5,
    retried: () => {},
    keyBudgets: new KeyBudgets(options.keyRetryBudget),
  };
  const fresh = () => new RetryBudget(options.retryBudget);
  const readPolicy = resolvePolicy(tool, options);
  const retrying = new Retry("t", readPolicy, provider, undefined, fresh(), deps);
  const next = script(faultError("503"), faultError("ECONNRESET"));
  const call = newCall();
  call.deadlineAt = Number.POSITIVE_INFINITY;
  const done = await retrying.execute(call, next).promise();
  assert.equal(done.output, "ok");
  assert.equal(next.calls, 3);
  assert.deepEqual(delays, [500, 1000]);

  const write = writeTool("w");
  const once = new Retry("w", resolvePolicy(write, options), provider, undefined, fresh(), deps);
  const writeNext = script(faultError("503"));
  assert.equal((await once.execute(newCall({}, write), writeNext).promise()).outcome, "failed");
  assert.equal(writeNext.calls, 1);

  const blaming: Provider = { ...provider, blame: () => "caller" };
  const blamed = new Retry("t", readPolicy, blaming, undefined, fresh(), deps);
  const blamedNext = script(faultError("503"));
  const blamedCall = newCall();
  blamedCall.deadlineAt = Number.POSITIVE_INFINITY;
  assert.equal((await blamed.execute(blamedCall, blamedNext).promise()).outcome, "failed");
  assert.equal(blamedNext.calls, 1);

  const spent = new RetryBudget({ ratio: 0, capacity: 1, perSecond: 0 }, () => 0);
  const budgeted = new Retry("t", readPolicy, provider, undefined, spent, deps);
  const budgetedNext = script(faultError("503"), faultError("503"), faultError("503"));
  const budgetedCall = newCall();
  budgetedCall.deadlineAt = Number.POSITIVE_INFINITY;
  assert.equal((await budgeted.execute(budgetedCall, budgetedNext).promise()).outcome, "failed");
  assert.equal(budgetedNext.calls, 2, "one retry, paid by the one token");
});

test("retry: no retry whose wait would end after the call's deadline", async () => {
  const deps = {
    sleep: async () => {},
    random: () => 0.5,
    retried: () => {},
    keyBudgets: new KeyBudgets(options.keyRetryBudget),
  };
  const retrying = new Retry(
    "t",
    resolvePolicy(tool, options),
    provider,
    undefined,
    new RetryBudget(options.retryBudget),
    deps,
  );
  const next = script(faultError("503"));
  const call = newCall();
  call.deadlineAt = performance.now() + 100; // the first retry waits 500 ms
  assert.equal((await retrying.execute(call, next).promise()).outcome, "failed");
  assert.equal(next.calls, 1);
});

test("breaker: provider faults open it, caller failures do not, and an open one refuses without calling next", async () => {
  const settings = { ...options.breaker, consecutiveFailures: 3 };
  const registry = new BreakerRegistry(undefined, () => {});
  const breaker = registry.get("t", "p", settings);
  const stage = new Breaker(breaker, provider, undefined);
  for (let i = 0; i < 10; i++) await stage.execute(newCall(), failing(faultError("400"))).promise();
  assert.equal(breaker.state, "closed");
  for (let i = 0; i < 3; i++) await stage.execute(newCall(), failing(faultError("503"))).promise();
  assert.equal(breaker.state, "open");
  const refused = await stage.execute(newCall(), failing(new Error("must not run"))).promise();
  assert.equal((refused.failure as DispatchError).class, "breaker_open");
  assert.deepEqual(refused.breakers, { p: "open" });
});

test("timeout: a provider that never answers fails the attempt as timeout; a passed deadline fails at once", async () => {
  const stage = new Timeout(20);
  const call = newCall();
  call.readyAt = performance.now();
  call.deadlineAt = call.readyAt + 60_000;
  const hanging: Provider = { id: "h", invoke: () => new Promise(() => {}) };
  const providerStage = new ProviderCall(hanging, tool, 8000, () => estimateTokens);
  const timedOut = await stage
    .execute(call, (c) => providerStage.execute(c, failing(new Error("unused"))))
    .promise();
  assert.equal((timedOut.failure as DispatchError).class, "timeout");
  const late = newCall();
  late.readyAt = performance.now();
  late.deadlineAt = late.readyAt - 1;
  const passed = await stage.execute(late, failing(new Error("must not run"))).promise();
  assert.match(String((passed.failure as Error).message), /deadline passed/);
});

test("provider: the answer is normalised and checked against the outputSchema, and held to the budget", async () => {
  const shaped = readTool("s", {
    outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  });
  const run = async (invoke: Provider["invoke"], budget = 8000, t: Tool = shaped) => {
    const call = newCall({}, t);
    call.readyAt = performance.now();
    call.deadlineAt = call.readyAt + 60_000;
    const stage = new ProviderCall({ id: "p", invoke }, t, budget, () => estimateTokens);
    return new Timeout(1000).execute(call, (c) => stage.execute(c, failing(new Error("unused")))).promise();
  };
  const mcp = await run(async () => ({ content: [{ type: "text", text: '{"n": 1}' }] }));
  assert.deepEqual(mcp.output, { n: 1 });
  assert.equal(mcp.provider, "p");
  const drift = await run(async () => ({ m: 1 }));
  assert.equal((drift.failure as DispatchError).class, "schema");
  const long = await run(async () => "word ".repeat(5000), 100, readTool("plain"));
  assert.match(long.warnings?.[0] ?? "", /truncated to the 100-token budget/);
});
