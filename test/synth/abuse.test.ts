// The escape and abuse suite: hostile tools that try to leave the isolate, reach the host, exhaust it or
// poison what it returns. Each must be rejected (static policy) or contained (a SandboxError), end within
// its deadline plus a margin, and leave the host answering the next call. Most runtime cases hide their
// intent from the static check (aliases, computed keys) on purpose: the isolate must hold on its own.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Sandbox, SandboxError, type SandboxErrorKind } from "../../src/synth/index.ts";
import { scaled } from "../load-factor.ts";

const sandbox = new Sandbox({ memoryLimitMb: 64, maxOutputChars: 1_000_000 });
after(() => sandbox.close());

/** The deadline of the cases that exhaust something; the others get RESULT_DEADLINE_MS, so that a loaded
 * machine cannot turn their deterministic outcome into a timeout. */
const DEADLINE_MS = 400;
const RESULT_DEADLINE_MS = 10_000;
/** Generous: process scheduling on a loaded CI machine, plus isolate disposal. */
const MARGIN_MS = 2_500;

interface Case {
  label: string;
  code: string;
  /** Acceptable outcomes: SandboxError kinds. */
  kinds: SandboxErrorKind[];
  /** The error message must match, when given. */
  message?: RegExp;
  /** Nothing of this must show in the console lines (a getter or trap that must not have run). */
  silent?: string;
  /** When the case needs a deadline of its own (V8 collects hard near the memory limit). */
  timeoutMs?: number;
}

const tool = (body: string) => `async function attack(args, ctx) {\n${body}\n}`;
const C = `const c = "constr" + "uctor";`;

const cases: Case[] = [
  // Reaching code generation, and through it the host
  {
    label: "Function constructor through a computed .constructor chain",
    code: tool(`${C} return (() => {})[c][c]("return process")();`),
    kinds: ["runtime"],
    message: /code generation from strings is not available/,
  },
  {
    label: "AsyncFunction constructor through the prototype",
    code: tool(`${C} return await Object.getPrototypeOf(async () => {})[c]("return process")();`),
    kinds: ["runtime"],
    message: /code generation from strings is not available/,
  },
  {
    label: "GeneratorFunction constructor",
    code: tool(`${C} return Object.getPrototypeOf(function* () {})[c]("yield 1")().next();`),
    kinds: ["runtime"],
    message: /code generation from strings is not available/,
  },
  {
    label: "require, process and globalThis by name",
    code: tool("return [typeof require, typeof process, globalThis];"),
    kinds: ["static"],
  },
  {
    label: "the global object through an unbound sloppy function",
    code: tool(`
      const f = function () { return this; };
      if (f() !== undefined) throw new Error("reached the global object");
      throw new Error("strict mode: no global object");`),
    kinds: ["runtime"],
    message: /strict mode: no global object/,
  },
  {
    label: "the host's capabilities when none were granted",
    code: tool(`
      const found = [];
      for (const key of Reflect.ownKeys(ctx)) found.push(String(key));
      if (ctx.fetch || ctx.html) throw new Error("capability leaked");
      throw new Error("only " + found.join(","));`),
    kinds: ["runtime"],
    message: /Error: only console$/,
  },
  {
    label: "WebAssembly, SharedArrayBuffer and Atomics removed at run time too",
    code: tool(`
      const names = ["WebAss" + "embly", "SharedArr" + "ayBuffer", "Atom" + "ics", "ev" + "al"];
      const present = names.filter((n) => { try { return Reflect.has(Object.getPrototypeOf(Object.create(null)) ?? {}, n); } catch { return false; } });
      throw new Error("present: " + present.join(","));`),
    kinds: ["runtime"],
    message: /present: $/,
  },
  // Tampering with the realm the boundary code relies on
  {
    label: "overwriting Array.prototype.push through an alias",
    code: tool(`const A = Array; A["proto" + "type"].push = () => 0; return 1;`),
    kinds: ["runtime"],
    message: /TypeError: Cannot assign to read only property/,
  },
  {
    label: "installing Error.prepareStackTrace to capture host frames",
    code: tool(`const E = Error; E["prepare" + "StackTrace"] = (e, s) => s; return new E("x").stack;`),
    kinds: ["runtime"],
    message: /TypeError: Cannot add property prepareStackTrace, object is not extensible/,
  },
  // Poisoned results
  {
    label: "prototype pollution through a returned __proto__ key",
    code: tool(`return JSON.parse('{"__proto__": {"polluted": true}}');`),
    kinds: ["output"],
    message: /"__proto__" key is refused/,
  },
  {
    label: "a getter in the result, which must not run",
    code: tool(`return { get secret() { ctx.console.log("getter ran"); return 1; } };`),
    kinds: ["output"],
    message: /getter/,
    silent: "getter ran",
  },
  {
    label: "a proxy in the result, whose traps must not run",
    code: tool(`
      const log = () => { ctx.console.log("trap ran"); return undefined; };
      const P = Proxy;
      return { inner: new P({}, { ownKeys: () => (log(), []), get: log, getOwnPropertyDescriptor: log }) };`),
    kinds: ["output"],
    message: /result\.inner is a Proxy/,
    silent: "trap ran",
  },
  {
    label: "a function (toJSON) in the result",
    code: tool(`return { toJSON() { return "forged"; } };`),
    kinds: ["output"],
    message: /is a function/,
  },
  {
    label: "a cycle in the result",
    code: tool(`const a = { list: [] }; a.list.push(a); return a;`),
    kinds: ["output"],
    message: /cycle/,
  },
  {
    label: "a symbol in the result",
    code: tool(`return { s: Symbol("x") };`),
    kinds: ["output"],
    message: /Symbol/,
  },
  {
    label: "a thrown proxy whose traps loop forever",
    code: tool(
      `const P = Proxy; throw new P({}, { get() { for (;;); }, getOwnPropertyDescriptor() { for (;;); } });`,
    ),
    kinds: ["runtime"],
    message: /a non-Error value was thrown/,
  },
  // Exhaustion
  {
    label: "a synchronous infinite loop",
    code: tool("for (;;);"),
    kinds: ["timeout"],
  },
  {
    label: "an async loop that yields to the microtask queue forever",
    code: tool("for (;;) await null;"),
    kinds: ["timeout"],
  },
  {
    label: "a promise chain that re-queues itself forever",
    code: tool("const step = () => Promise.resolve().then(step); return step();"),
    kinds: ["timeout", "memory"],
  },
  {
    label: "a background microtask loop left running after returning",
    code: tool("(async () => { for (;;) await null; })(); return 1;"),
    kinds: ["timeout"],
  },
  {
    label: "a thenable that never settles (nothing runs: only the host's clock can end it)",
    code: tool("return { then() {} };"),
    kinds: ["timeout"],
  },
  {
    label: "a catastrophic regular expression",
    code: tool(`return /^(a+)+$/.test("a".repeat(40) + "b");`),
    kinds: ["timeout"],
  },
  {
    label: "a memory bomb of large arrays, given the time to reach the memory limit",
    code: tool("const hoard = []; for (let i = 0; ; i++) hoard.push(new Array(1e5).fill(i));"),
    kinds: ["memory"],
    timeoutMs: 15_000,
  },
  {
    label: "a memory bomb of large strings, stopped by whichever limit comes first",
    code: tool(`const hoard = []; for (let i = 0; ; i++) hoard.push("x".repeat(1e7 + i));`),
    kinds: ["memory", "timeout"],
  },
  {
    label: "a memory bomb of string doubling",
    code: tool(`let s = "x"; const keep = []; for (;;) { s = s + s; keep.push(s + "y"); }`),
    kinds: ["memory", "runtime", "timeout"],
  },
  {
    label: "a huge ArrayBuffer",
    code: tool("const b = new ArrayBuffer(1024 * 1024 * 1024); return b.byteLength;"),
    kinds: ["memory", "runtime", "timeout"],
  },
  {
    label: "deep recursion",
    code: tool("const down = (n) => down(n + 1) + 1; return down(0);"),
    kinds: ["runtime"],
    message: /RangeError: Maximum call stack size exceeded/,
  },
  {
    label: "a deeply nested result",
    code: tool("let v = []; for (let i = 0; i < 100000; i++) v = [v]; return v;"),
    kinds: ["output"],
    message: /nested more than 200 levels/,
  },
  {
    label: "a 100 MB output",
    code: tool(`return "x".repeat(100 * 1024 * 1024);`),
    kinds: ["output", "memory", "runtime", "timeout"],
  },
  {
    label: "a sparse array claiming a billion elements",
    code: tool("const a = []; a.length = 1e9; return a;"),
    kinds: ["output"],
    message: /larger than the 1000000-character limit/,
  },
  {
    label: "an error message of 50 MB",
    code: tool(`throw new Error("e".repeat(50 * 1024 * 1024));`),
    kinds: ["runtime", "memory", "timeout"],
  },
];

const healthy = "function healthy(args) { return { echo: args.n }; }";

describe("escape and abuse suite", () => {
  let n = 0;
  for (const attack of cases) {
    it(`contains ${attack.label}`, async () => {
      const deadline =
        attack.timeoutMs ?? (attack.kinds.includes("timeout") ? DEADLINE_MS : RESULT_DEADLINE_MS);
      const started = performance.now();
      let error: unknown;
      try {
        await sandbox.run({ code: attack.code, name: "attack", args: {}, timeoutMs: deadline });
      } catch (caught) {
        error = caught;
      }
      const elapsed = performance.now() - started;
      assert.ok(error instanceof SandboxError, `not contained: ${String(error)}`);
      assert.ok(
        attack.kinds.includes(error.kind),
        `${attack.label}: kind ${error.kind} (${error.message.slice(0, 200)}), expected ${attack.kinds}`,
      );
      if (attack.message) assert.match(error.message, attack.message);
      if (attack.silent)
        assert.ok(!error.console.some((line) => line.message.includes(attack.silent as string)), "it ran");
      assert.ok(elapsed < deadline + scaled(MARGIN_MS), `took ${elapsed} ms`);
      n += 1;
      const next = await sandbox.run({ code: healthy, name: "healthy", args: { n } });
      assert.deepEqual(next.value, { echo: n });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  }

  it("keeps serving while a runaway tool is being stopped", async () => {
    // Checked from the start: on a busy machine it is answered before the healthy calls are, and a
    // rejection nobody handles yet fails the test.
    const runaway = assert.rejects(
      sandbox.run({ code: tool("for (;;);"), name: "attack", args: {}, timeoutMs: 1_000 }),
      (error: unknown) => error instanceof SandboxError && error.kind === "timeout",
    );
    // A deadline no machine reaches: this is about being served meanwhile, not the pace.
    const answers = await Promise.all(
      [1, 2, 3].map((k) =>
        sandbox.run({ code: healthy, name: "healthy", args: { n: k }, timeoutMs: 120_000 }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.value),
      [{ echo: 1 }, { echo: 2 }, { echo: 3 }],
    );
    await runaway;
  });

  it("exposes no isolated-vm handle anywhere reachable from args and ctx", async () => {
    // Walks everything reachable (properties, accessors, prototypes) from what the tool is given, with every
    // capability granted, looking for the methods of isolated-vm's Reference, ExternalCopy or Callback.
    const code = tool(`
      const handleMethods = ["applySync", "derefInto", "copyInto", "getSync", "setSync", "deref", "copy", "release"];
      const seen = new Set();
      const pending = [args, ctx];
      const found = [];
      while (pending.length > 0) {
        const value = pending.pop();
        if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value)) continue;
        seen.add(value);
        pending.push(Object.getPrototypeOf(value));
        for (const key of Reflect.ownKeys(value)) {
          if (handleMethods.includes(key)) found.push(String(key));
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          pending.push(descriptor.value, descriptor.get, descriptor.set);
        }
      }
      return { objects: seen.size, found };`);
    const { value } = await sandbox.run({
      code,
      name: "attack",
      args: { nested: { list: [1, { deep: true }] } },
      capabilities: {
        fetch: { allow: ["http://127.0.0.1:9/"], methods: ["GET"], maxBytes: 10, timeoutMs: 10 },
        html: true,
      },
    });
    const { objects, found } = value as { objects: number; found: string[] };
    assert.deepEqual(found, []);
    assert.ok(objects > 100, `walked only ${objects} objects`);
  });

  it("caps a console flood", async () => {
    const { console } = await sandbox.run({
      code: tool(`for (let i = 0; i < 10000; i++) ctx.console.log("x".repeat(10000)); return 1;`),
      name: "attack",
      args: {},
      timeoutMs: 5_000,
    });
    assert.equal(console.length, 200);
    assert.ok(console.every((line) => line.message.length <= 2000));
  });
});
