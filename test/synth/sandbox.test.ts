import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Sandbox, SandboxError } from "../../src/synth/index.ts";
import { scaled } from "../load-factor.ts";

// A tool's answer may come late on a busy machine: the default deadline scales with the load (load-factor.ts).
const sandbox = new Sandbox({ defaultTimeoutMs: Math.round(scaled(2_000)) });
after(() => sandbox.close());

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SandboxError, `expected a SandboxError, got ${error}`);
    return error;
  }
  assert.fail("expected the run to fail");
}

describe("Sandbox", () => {
  it("runs an async tool with copied JSON in and out, and captures its console", async () => {
    const code = `async function add(args, ctx) {
      ctx.console.log("adding", args.a, args.b);
      ctx.console.warn({ note: "careful" });
      return { sum: args.a + args.b, list: [1, "two", null, true] };
    }`;
    const result = await sandbox.run({ code, name: "add", args: { a: 2, b: 3 } });
    assert.deepEqual(result.value, { sum: 5, list: [1, "two", null, true] });
    assert.deepEqual(result.console, [
      { level: "log", message: "adding 2 3" },
      { level: "warn", message: '{"note":"careful"}' },
    ]);
  });

  it("runs a sync tool and reuses the warm isolate without carrying state between calls", async () => {
    const code = `function counter(args) {
      const seen = [];
      seen.push(args.n);
      return { seen, globalsWritable: Object.isFrozen(Object.prototype) === false };
    }`;
    const first = await sandbox.run({ code, name: "counter", args: { n: 1 } });
    const second = await sandbox.run({ code, name: "counter", args: { n: 2 } });
    assert.deepEqual(first.value, { seen: [1], globalsWritable: false });
    assert.deepEqual(second.value, { seen: [2], globalsWritable: false });
  });

  it("keeps nothing a call writes on builtins for the next call", async () => {
    // Reached through aliases and computed keys, which the static check cannot judge: the frozen realm must.
    const code = `function leak(args) {
      const A = Array, J = JSON, key = "proto" + "type";
      if (args.write) {
        try { A[key].leaked = args.secret; } catch {}
        try { J.leaked = args.secret; } catch {}
        try { Object.getPrototypeOf({}).leaked = args.secret; } catch {}
        return null;
      }
      return [A[key].leaked ?? null, J.leaked ?? null, {}.leaked ?? null];
    }`;
    await sandbox.run({ code, name: "leak", args: { write: true, secret: "s3cret" } });
    const read = await sandbox.run({ code, name: "leak", args: { write: false } });
    assert.deepEqual(read.value, [null, null, null]);
  });

  it("reports a thrown error with its line and column in the tool's code", async () => {
    const code = `async function boom(args) {\n  const x = 1;\n  throw new RangeError("bad value " + x);\n}`;
    const error = await failure(sandbox.run({ code, name: "boom", args: {} }));
    assert.equal(error.kind, "runtime");
    assert.equal(error.message, "RangeError: bad value 1");
    assert.equal(error.line, 3);
    assert.equal(error.column, 9);
  });

  it("refuses code that breaks the static policy before compiling it", async () => {
    const error = await failure(
      sandbox.run({ code: "async function t(args) { return require('fs'); }", name: "t", args: {} }),
    );
    assert.equal(error.kind, "static");
    assert.match(error.message, /require/);
    assert.equal(error.violations.length, 1);
  });

  it("refuses arguments that are not JSON", async () => {
    const args: Record<string, unknown> = {};
    args.self = args;
    const error = await failure(sandbox.run({ code: "function t(a) { return 1; }", name: "t", args }));
    assert.equal(error.kind, "input");
  });

  it("stops a run that passes its deadline and still answers the next call", async () => {
    const code = "async function spin(args) { while (true) {} }";
    const error = await failure(sandbox.run({ code, name: "spin", args: {}, timeoutMs: 100 }));
    assert.equal(error.kind, "timeout");
    const ok = await sandbox.run({ code: "function t(a) { return a.x; }", name: "t", args: { x: 7 } });
    assert.equal(ok.value, 7);
  });

  it("cancels a run when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const run = sandbox.run({
      code: "async function wait(args) { for (;;) await null; }",
      name: "wait",
      args: {},
      signal: controller.signal,
      timeoutMs: 10_000,
    });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(run);
    assert.equal(error.kind, "cancelled");
  });

  it("does not start a call whose signal aborted while its isolate was being prepared", async () => {
    const controller = new AbortController();
    const run = sandbox.run({
      code: "function fresh(args) { return 1; }",
      name: "fresh",
      args: {},
      signal: controller.signal,
      timeoutMs: 10_000,
    });
    controller.abort();
    const error = await failure(run);
    assert.equal(error.kind, "cancelled");
  });

  it("refuses to run once closed", async () => {
    const closed = new Sandbox();
    closed.close();
    const error = await failure(closed.run({ code: "function t() { return 1; }", name: "t", args: {} }));
    assert.equal(error.kind, "closed");
  });
});
