// Synthesized and file-based sandboxed tools behind the real dispatcher, like any other tool: completion,
// the per-tool timeout, failures, the execution record, the result budget.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { sandboxProvider } from "../../src/bindings/sandbox.ts";
import { type SandboxBinding, type Tool, ToolRegistry } from "../../src/catalog/index.ts";
import { Dispatcher } from "../../src/dispatch/index.ts";
import { FileStore } from "../../src/store/index.ts";
import { Sandbox, synthesize } from "../../src/synth/index.ts";
import { scaled } from "../load-factor.ts";

const sandbox = new Sandbox();
let data: string;
let registry: ToolRegistry;
let dispatcher: Dispatcher;

before(async () => {
  data = await mkdtemp(join(tmpdir(), "synth-provider-"));
  registry = await ToolRegistry.open({ store: new FileStore(data) });
  dispatcher = new Dispatcher({
    tools: registry,
    providers: (tool: Tool) => [sandboxProvider(tool.binding as SandboxBinding, tool, sandbox)],
    options: { retry: { retries: 0 } },
  });
});
after(async () => {
  sandbox.close();
  await dispatcher.close();
  await rm(data, { recursive: true, force: true });
});

const object = { type: "object" } as const;

async function register(name: string, code: string, extra: Record<string, unknown> = {}) {
  const outcome = await synthesize(
    { name, description: `Test tool ${name}.`, inputSchema: object, code, ...extra },
    {
      sandbox,
      registry,
    },
  );
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
}

describe("sandboxProvider behind the dispatcher", () => {
  it("runs a synthesized tool and records the execution", async () => {
    await register("double_it", "function double_it(args) { return { value: args.n * 2 }; }");
    const [result] = await dispatcher.execute([{ id: "c1", name: "double_it", arguments: { n: 21 } }]);
    assert.equal(result?.status, "completed", JSON.stringify(result));
    assert.deepEqual(result?.output, { value: 42 });
    assert.ok(dispatcher.executions().some((record) => record.id === "c1"));
  });

  it("stops a runaway tool at its policy timeout and keeps serving", async () => {
    await register("runaway", "async function runaway(args) { for (;;); }", { policy: { timeoutMs: 200 } });
    const started = performance.now();
    const [slow, fast] = await dispatcher.execute([
      { id: "c2", name: "runaway", arguments: {} },
      { id: "c3", name: "double_it", arguments: { n: 1 } },
    ]);
    assert.equal(slow?.status, "timeout", JSON.stringify(slow));
    assert.ok(performance.now() - started < scaled(3_000));
    assert.deepEqual(fast?.output, { value: 2 });
  });

  it("reports a tool's thrown error as a failed call", async () => {
    await register(
      "thrower",
      "function thrower(args) { if (args.fail) throw new Error('asked to fail'); return 1; }",
    );
    const [result] = await dispatcher.execute([{ id: "c4", name: "thrower", arguments: { fail: true } }]);
    assert.equal(result?.status, "failed");
    assert.match(result?.error?.message ?? "", /asked to fail/);
  });

  it("cuts a large result to the tool's result budget", async () => {
    await register(
      "many_words",
      "function many_words(args) { return { words: Array.from({ length: 5000 }, (_, i) => 'word' + i) }; }",
      {
        policy: { resultBudget: { tokens: 200 } },
      },
    );
    const [result] = await dispatcher.execute([{ id: "c5", name: "many_words", arguments: {} }]);
    assert.ok(result !== undefined && result.status === "completed", JSON.stringify(result));
    const words = (result.output as { words: string[] }).words;
    assert.ok(words.length < 5000, `${words.length} words came back`);
    assert.match(result.provenance.warnings?.join(" ") ?? "", /output truncated to the 200-token budget/);
  });

  it("reads a binding file once and caches it", async () => {
    const file = join(data, "triple.js");
    await writeFile(file, "function triple(args) { return args.n * 3; }");
    const tool: Tool = { name: "triple", description: "Triples.", inputSchema: object };
    const provider = sandboxProvider({ type: "sandbox", file }, tool, sandbox);
    const signal = new AbortController().signal;
    assert.equal(await provider.invoke({ n: 2 }, { signal, callId: "f1", context: {} }), 6);
    await rm(file);
    assert.equal(await provider.invoke({ n: 3 }, { signal, callId: "f2", context: {} }), 9);
    const missing = sandboxProvider({ type: "sandbox", file: join(data, "absent.js") }, tool, sandbox);
    // Named by the tool, not by its absolute path.
    await assert.rejects(missing.invoke({}, { signal, callId: "f3", context: {} }), (error: Error) => {
      assert.match(error.message, /tool triple: its sandbox file \(binding\.file\) is missing or unreadable/);
      assert.doesNotMatch(error.message, /absent\.js|\//);
      return true;
    });
  });
});
