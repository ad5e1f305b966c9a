import assert from "node:assert/strict";
import { afterEach, mock, test } from "node:test";
import { Dispatcher, type Provider } from "../../src/dispatch/index.ts";
import { catalog, faultyProvider, readTool, writeTool } from "./harness.ts";

afterEach(() => mock.timers.reset());

function gated() {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const provider: Provider & { invocations: number } = {
    id: "gated",
    invocations: 0,
    async invoke() {
      provider.invocations++;
      await gate;
      return { n: provider.invocations };
    },
  };
  return { provider, release };
}

test("the same tool_call_id does not run twice at once: the second caller gets the first's outcome", async () => {
  const { provider, release } = gated();
  const dispatcher = new Dispatcher({ tools: catalog(writeTool("pay")), providers: () => [provider] });
  const first = dispatcher.execute([{ id: "call-1", name: "pay", arguments: {} }]);
  const second = dispatcher.execute([{ id: "call-1", name: "pay", arguments: {} }]);
  await new Promise((r) => setImmediate(r));
  release();
  const [[a], [b]] = await Promise.all([first, second]);
  assert.equal(provider.invocations, 1);
  assert.equal(a, b);
  assert.equal(dispatcher.executions().length, 1);
});

test("each call moves from in_progress to its final status, with timings", async () => {
  const { provider, release } = gated();
  const dispatcher = new Dispatcher({ tools: catalog(readTool("r")), providers: () => [provider] });
  const running = dispatcher.execute([{ id: "c1", name: "r", arguments: {} }]);
  await new Promise((r) => setImmediate(r));
  assert.equal(dispatcher.executions()[0]?.status, "in_progress");
  release();
  await running;
  const [record] = dispatcher.executions();
  assert.equal(record?.status, "completed");
  assert.equal(record?.attempts, 1);
  assert.equal(record?.provider, "gated");
  assert.ok((record?.timing?.totalMs ?? -1) >= 0);
});

test("in-progress entries older than the stale limit are cleaned, and the id may run again", async (t) => {
  mock.timers.enable({ apis: ["Date"], now: 0 });
  const hanging = faultyProvider({ failRate: 1, kinds: ["hang"] });
  const dispatcher = new Dispatcher({
    tools: catalog(writeTool("w", { policy: { timeoutMs: 1_000_000, concurrency: { limit: 2 } } })),
    providers: () => [hanging],
  });
  const cancel = new AbortController();
  t.after(() => cancel.abort()); // the hanging calls' timers must not outlive the test
  const first = dispatcher.execute([{ id: "stuck", name: "w", arguments: {} }], { signal: cancel.signal });
  await new Promise((r) => setImmediate(r));
  mock.timers.tick(299_000);
  assert.equal(dispatcher.executions()[0]?.status, "in_progress");
  mock.timers.tick(1_000);
  assert.equal(dispatcher.executions()[0]?.status, "timeout");
  assert.equal(dispatcher.statistics().inProgress, 0);
  const again = dispatcher.execute([{ id: "stuck", name: "w", arguments: {} }], { signal: cancel.signal });
  await new Promise((r) => setImmediate(r));
  assert.equal(hanging.invocations, 2);
  cancel.abort();
  assert.deepEqual(
    (await Promise.all([first, again])).map(([r]) => r?.status),
    ["cancelled", "cancelled"],
  );
});

test("only the last N executions are kept", async () => {
  const dispatcher = new Dispatcher({
    tools: catalog(readTool("r")),
    providers: () => [faultyProvider()],
    options: { historySize: 3 },
  });
  await dispatcher.execute(Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, name: "r", arguments: {} })));
  assert.deepEqual(
    dispatcher.executions().map((e) => e.id),
    ["c4", "c3", "c2"],
  );
});

test("statistics count outcomes by status", async () => {
  const dispatcher = new Dispatcher({ tools: catalog(readTool("r")), providers: () => [faultyProvider()] });
  await dispatcher.execute([
    { id: "a", name: "r", arguments: {} },
    { id: "b", name: "missing", arguments: {} },
  ]);
  const stats = dispatcher.statistics();
  assert.deepEqual(stats.byStatus, { completed: 1, failed: 1, timeout: 0, cancelled: 0 });
  assert.equal(stats.finished, 2);
});

test("a running id is found whether it started alone or beside other calls", async () => {
  const { provider, release } = gated();
  const dispatcher = new Dispatcher({ tools: catalog(writeTool("pay")), providers: () => [provider] });
  // "a" starts while nothing runs, "b" beside it; then each id is sent again while both still run.
  const a = dispatcher.execute([{ id: "a", name: "pay", arguments: {} }]);
  const b = dispatcher.execute([{ id: "b", name: "pay", arguments: {} }]);
  const againA = dispatcher.execute([{ id: "a", name: "pay", arguments: {} }]);
  const againB = dispatcher.execute([{ id: "b", name: "pay", arguments: {} }]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    dispatcher.executions().map((e) => [e.id, e.status]),
    [
      ["a", "in_progress"],
      ["b", "in_progress"],
    ],
  );
  release();
  const [[ra], [rb], [ra2], [rb2]] = await Promise.all([a, b, againA, againB]);
  assert.equal(provider.invocations, 2);
  assert.equal(ra2, ra);
  assert.equal(rb2, rb);
  // Once both have finished, the same ids run again.
  const [[third]] = await Promise.all([dispatcher.execute([{ id: "a", name: "pay", arguments: {} }])]);
  assert.equal(provider.invocations, 3);
  assert.notEqual(third, ra);
});
