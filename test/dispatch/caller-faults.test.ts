// Issue 14, finding 5: one caller must not open a tool's circuit for everyone. Calls whose arguments make
// a tool fail are the caller's failures: they are neither retried nor counted against the breaker. Both
// tools run their real code in the real sandbox; each has a hair-trigger breaker (two failures in a window
// of two) so that a single counted failure pair would open it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { providersFor } from "../../src/bindings/index.ts";
import { loadCatalog, type Tool } from "../../src/catalog/index.ts";
import { Dispatcher } from "../../src/dispatch/index.ts";
import { Sandbox } from "../../src/synth/index.ts";
import { readTool } from "./harness.ts";

const sandbox = new Sandbox();
after(() => sandbox.close());

const hairTrigger = { failureRate: 0.5, windowSize: 2, minCalls: 2 };

function dispatcherFor(tool: Tool) {
  return new Dispatcher({
    tools: { get: (name) => (name === tool.name ? tool : undefined) },
    providers: (t) => providersFor(t, { sandbox }),
  });
}

test("12 calls with 5,000-deep arrays do not open probe_tool's breaker, and other callers still get answers", async () => {
  const probe = readTool("probe_tool", {
    inputSchema: { type: "object", properties: { data: {} } },
    binding: {
      type: "sandbox",
      code: `async function probe_tool(args) {
        const depth = (v) => (Array.isArray(v) ? 1 + Math.max(0, ...v.map(depth)) : 0);
        const d = depth(args.data);
        if (d > 100) throw new Error("data is nested " + d + " deep; at most 100 levels are accepted");
        return { depth: d };
      }`,
    },
    policy: { breaker: hairTrigger },
  });
  const dispatcher = dispatcherFor(probe);
  let deep: unknown[] = [];
  for (let i = 0; i < 5000; i++) deep = [deep];
  for (let i = 0; i < 12; i++) {
    const [result] = await dispatcher.execute([
      { id: `deep${i}`, name: "probe_tool", arguments: { data: deep } },
    ]);
    assert.equal(result?.status, "failed");
    assert.notEqual(result?.error?.class, "breaker_open", `call ${i}: ${result?.error?.message}`);
    assert.ok((result?.provenance.attempts ?? 0) <= 1, "a caller's failure is not retried");
  }
  assert.deepEqual(
    dispatcher.breakers().map((b) => b.state),
    ["closed"],
  );
  const [other] = await dispatcher.execute([{ id: "fine", name: "probe_tool", arguments: { data: [[1]] } }]);
  assert.equal(other?.status, "completed", JSON.stringify(other?.error));
  assert.deepEqual(other?.output, { depth: 2 });
});

test("2 catastrophic regexes do not open regex_extract's breaker, and are not retried", async () => {
  const bundled = (await loadCatalog(join(import.meta.dirname, "../../catalog"))).find(
    (t) => t.name === "regex_extract",
  );
  assert.ok(bundled, "the bundled catalog has regex_extract");
  const tool: Tool = { ...bundled, policy: { ...bundled.policy, breaker: hairTrigger } };
  const dispatcher = dispatcherFor(tool);
  const text = `${"a".repeat(30)}!`;
  for (let i = 0; i < 2; i++) {
    const [result] = await dispatcher.execute([
      { id: `redos${i}`, name: "regex_extract", arguments: { text, pattern: "^(a+)+$" } },
    ]);
    assert.notEqual(result?.status, "completed");
    assert.notEqual(result?.error?.class, "breaker_open");
    assert.equal(result?.provenance.attempts, 1, "the same input would time out again: no retry");
  }
  assert.deepEqual(
    dispatcher.breakers().map((b) => b.state),
    ["closed"],
  );
  const [other] = await dispatcher.execute([
    {
      id: "fine",
      name: "regex_extract",
      arguments: { text: "order ORD-12345 and ORD-9", pattern: "ORD-\\d+" },
    },
  ]);
  assert.equal(other?.status, "completed", JSON.stringify(other?.error));
  assert.equal((other?.output as { count?: number } | undefined)?.count, 2);
});
