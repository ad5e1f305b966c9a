import assert from "node:assert/strict";
import { test } from "node:test";
import { Dispatcher, type Provider, type RetryNotice } from "../../src/dispatch/index.ts";
import { catalog, faultError, faultyProvider, readTool, recordingSleep, tool, writeTool } from "./harness.ts";

/** A stand-in provider that fails with the given errors in order, then answers. */
function scripted(errors: Error[], answer: unknown = { ok: true }) {
  const provider = {
    id: "primary",
    invocations: 0,
    refreshes: 0,
    async refreshCredentials() {
      provider.refreshes++;
    },
    async invoke() {
      const error = errors[provider.invocations++];
      if (error) throw error;
      return answer;
    },
  } satisfies Provider & Record<string, unknown>;
  return provider;
}

function dispatcherFor(t: ReturnType<typeof readTool>, provider: Provider, options = {}) {
  const sleep = recordingSleep();
  const dispatcher = new Dispatcher({
    tools: catalog(t),
    providers: () => [provider],
    sleep: sleep.sleep,
    random: () => 0.5,
    options,
  });
  const retries: RetryNotice[] = [];
  dispatcher.on("retry", (n) => retries.push(n));
  return { dispatcher, delays: sleep.delays, retries };
}

test("a read-only tool is retried through transient faults and succeeds", async () => {
  const provider = scripted([faultError("ECONNRESET"), faultError("503")]);
  const { dispatcher, delays } = dispatcherFor(readTool("search"), provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "search", arguments: {} }]);
  assert.equal(result?.status, "completed");
  assert.equal(result?.provenance.attempts, 3);
  assert.deepEqual(delays, [500, 1000]); // base·2^(n-1): a 503 is not a rate limit
});

test("a write tool failing transiently runs exactly once", async () => {
  const provider = scripted([faultError("ECONNRESET")]);
  const { dispatcher, retries } = dispatcherFor(writeTool("send_email"), provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "send_email", arguments: {} }]);
  assert.equal(result?.status, "failed");
  assert.equal(result?.error?.class, "connection");
  assert.equal(provider.invocations, 1);
  assert.equal(retries.length, 0);
});

test("an idempotent tool is retried", async () => {
  const provider = scripted([faultError("ETIMEDOUT")]);
  const t = tool({ name: "put_file", annotations: { idempotentHint: true } });
  const { dispatcher } = dispatcherFor(t, provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "put_file", arguments: {} }]);
  assert.equal(result?.status, "completed");
  assert.equal(provider.invocations, 2);
});

test("a write tool with an idempotency key is retried only when the call carries the key", async () => {
  const t = writeTool("charge", { policy: { retry: { idempotencyKey: "requestId" } } });
  const keyed = scripted([faultError("ECONNRESET")]);
  const [withKey] = await dispatcherFor(t, keyed).dispatcher.execute([
    { id: "c1", name: "charge", arguments: { requestId: "r-1" } },
  ]);
  assert.equal(withKey?.status, "completed");
  assert.equal(keyed.invocations, 2);
  const unkeyed = scripted([faultError("ECONNRESET")]);
  const [withoutKey] = await dispatcherFor(t, unkeyed).dispatcher.execute([
    { id: "c2", name: "charge", arguments: {} },
  ]);
  assert.equal(withoutKey?.status, "failed");
  assert.equal(unkeyed.invocations, 1);
});

test("fatal errors fail at once, without retries", async () => {
  const provider = scripted([faultError("404")]);
  const { dispatcher } = dispatcherFor(readTool("lookup"), provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "lookup", arguments: {} }]);
  assert.equal(result?.error?.class, "fatal");
  assert.equal(provider.invocations, 1);
});

test("unknown errors are not retried (fail-closed)", async () => {
  const provider = scripted([faultError("unknown")]);
  const { dispatcher } = dispatcherFor(readTool("lookup"), provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "lookup", arguments: {} }]);
  assert.equal(result?.error?.class, "unknown");
  assert.equal(provider.invocations, 1);
});

test("expired credentials are refreshed through the hook and retried once, without waiting", async () => {
  const provider = scripted([faultError("401"), faultError("401")]);
  const { dispatcher, delays } = dispatcherFor(readTool("crm"), provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "crm", arguments: {} }]);
  assert.equal(result?.error?.class, "credentials");
  assert.equal(provider.refreshes, 1);
  assert.equal(provider.invocations, 2);
  assert.deepEqual(delays, []);
});

test("retries stop after the configured number", async () => {
  const provider = faultyProvider({ failRate: 1, kinds: ["ECONNRESET"] });
  const { dispatcher, delays } = dispatcherFor(readTool("flaky"), provider, { retry: { retries: 2 } });
  const [result] = await dispatcher.execute([{ id: "c1", name: "flaky", arguments: {} }]);
  assert.equal(result?.status, "failed");
  assert.equal(provider.invocations, 3);
  assert.equal(delays.length, 2);
});

test("a tool's own retry policy overrides the global one", async () => {
  const provider = faultyProvider({ failRate: 1, kinds: ["ECONNRESET"] });
  const t = readTool("flaky", { policy: { retry: { retries: 1, baseMs: 10 } } });
  const { dispatcher, delays } = dispatcherFor(t, provider);
  await dispatcher.execute([{ id: "c1", name: "flaky", arguments: {} }]);
  assert.equal(provider.invocations, 2);
  assert.deepEqual(delays, [10]);
});

test("a Retry-After header sets the wait", async () => {
  const limited = Object.assign(new Error("slow down"), { status: 429, headers: { "retry-after": "3" } });
  const provider = scripted([limited]);
  const { dispatcher, delays, retries } = dispatcherFor(readTool("api"), provider);
  await dispatcher.execute([{ id: "c1", name: "api", arguments: {} }]);
  assert.deepEqual(delays, [3000]);
  assert.equal(retries[0]?.class, "rate_limit");
});

test("arguments that fail the inputSchema are a schema outcome with field paths, and nothing runs", async () => {
  const provider = scripted([]);
  const t = readTool("weather", {
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer", maximum: 7 } },
      required: ["city"],
      additionalProperties: false,
    },
  });
  const { dispatcher } = dispatcherFor(t, provider);
  const [result] = await dispatcher.execute([
    { id: "c1", name: "weather", arguments: { days: 9, unit: "C" } },
  ]);
  assert.equal(result?.error?.class, "schema");
  assert.deepEqual(result?.error?.issues?.map((i) => i.path).sort(), ["city", "days", "unit"]);
  assert.equal(provider.invocations, 0);
});

test("output that fails the outputSchema is a schema outcome and is not retried", async () => {
  const provider = scripted([], { temperature: "warm" });
  const t = readTool("weather", {
    outputSchema: {
      type: "object",
      properties: { temperature: { type: "number" } },
      required: ["temperature"],
    },
  });
  const { dispatcher } = dispatcherFor(t, provider);
  const [result] = await dispatcher.execute([{ id: "c1", name: "weather", arguments: {} }]);
  assert.equal(result?.error?.class, "schema");
  assert.deepEqual(result?.error?.issues, [{ path: "temperature", message: "must be number" }]);
  assert.equal(provider.invocations, 1);
});

test("an unknown tool gets a clear error", async () => {
  const { dispatcher } = dispatcherFor(readTool("a"), scripted([]));
  const [result] = await dispatcher.execute([{ id: "c1", name: "nope", arguments: {} }]);
  assert.deepEqual(result?.error, { class: "unknown_tool", message: 'unknown tool "nope"' });
});

test("a tool registry that throws rejects the call's promise rather than throwing from execute", async () => {
  const dispatcher = new Dispatcher({
    tools: {
      get() {
        throw new Error("registry unavailable");
      },
    },
    providers: () => [],
  });
  await dispatcher.ready(); // a ready dispatcher takes the single-call path
  let running: Promise<unknown> | undefined;
  assert.doesNotThrow(() => {
    running = dispatcher.execute([{ id: "c1", name: "a" }]);
  });
  await assert.rejects(running as Promise<unknown>, /registry unavailable/);
});

test("malformed calls and options are refused with the place named", async () => {
  const { dispatcher } = dispatcherFor(readTool("a"), scripted([]));
  await assert.rejects(
    dispatcher.execute([{ id: "", name: "a" }]),
    /calls\[0\]\.id must be a non-empty string/,
  );
  assert.throws(
    () => new Dispatcher({ tools: catalog(), providers: () => [], options: { retry: { retries: -1 } } }),
    /options\.retry\.retries/,
  );
});
