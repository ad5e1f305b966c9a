import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkCode } from "../../src/synth/index.ts";

const wrap = (body: string) => `async function tool(args, ctx) {\n${body}\n}`;

/** The violations of a body placed on line 2 of the tool function. */
const check = (body: string) => checkCode(wrap(body), "tool");

describe("checkCode", () => {
  it("accepts a plain tool that uses only built-ins and ctx", () => {
    const body = `
      const words = String(args.text).split(/\\s+/).filter(Boolean);
      const counts = new Map();
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
      ctx.console.log("counted", words.length);
      class Tally { constructor(n) { this.n = n; } }
      const page = await ctx.fetch("https://example.com/");
      return { total: new Tally(words.length).n, unique: counts.size, status: page.status };`;
    assert.deepEqual(check(body), []);
    assert.deepEqual(checkCode("function tool(a) { return a; }", "tool"), []);
  });

  it("requires exactly the named function at the top level", () => {
    const missing = checkCode("async function other(args) {}", "tool");
    assert.ok(missing.some((v) => /must define async function tool\(args, ctx\)/.test(v.message)));
    const extra = checkCode("const x = 1;\nasync function tool(args) { return x; }", "tool");
    assert.equal(extra.length, 1);
    assert.match(
      extra[0]?.message ?? "",
      /only the tool function may appear at the top level, found VariableDeclaration/,
    );
    assert.equal(extra[0]?.line, 1);
    assert.match(checkCode("function* tool(args) {}", "tool")[0]?.message ?? "", /not a generator/);
    assert.match(checkCode("function tool(a, b, c) {}", "tool")[0]?.message ?? "", /at most two parameters/);
    assert.equal(checkCode('"use strict";\nfunction tool(a) {}', "tool").length, 1);
  });

  it("reports syntax errors with their position", () => {
    const [violation] = checkCode("async function tool(args) {\n  return args.;\n}", "tool");
    assert.match(violation?.message ?? "", /^syntax error/);
    assert.equal(violation?.line, 2);
    assert.equal(violation?.column, 15);
  });

  const refused: [string, string, RegExp][] = [
    ["require", "return require('fs');", /`require` is refused/],
    ["dynamic import", "return import('fs');", /import is refused/],
    ["static import", "import fs from 'fs';", /import is refused|top level|syntax error/],
    ["eval", "return eval('1');", /`eval` is refused/],
    ["Function", "return Function('return 1')();", /`Function` is refused/],
    ["new Function", "return new Function('return 1')();", /`Function` is refused/],
    ["constructor chain", "return (() => {}).constructor('return 1')();", /`.constructor` is refused/],
    ["computed constructor", "return ({})['constructor'];", /`.constructor` is refused/],
    ["template constructor", "return ({})[`constructor`];", /`.constructor` is refused/],
    [
      "destructured constructor",
      "const { constructor } = args; return constructor;",
      /destructuring `constructor`/,
    ],
    ["__proto__ read", "return args.__proto__;", /__proto__/],
    ["__proto__ literal", "return { __proto__: null, a: 1 };", /__proto__ key/],
    ["prototype write", "Object.prototype.polluted = 1;", /prototype pollution/],
    ["nested prototype write", "Array.prototype.map.x = 1;", /prototype pollution/],
    ["builtin write", "Math.random = () => 4;", /modifying the built-in Math/],
    ["builtin assignment", "JSON = null;", /assigning to the built-in JSON/],
    ["delete on builtin", "delete Math.PI;", /modifying the built-in Math/],
    ["setPrototypeOf", "Object.setPrototypeOf(args, null);", /setPrototypeOf/],
    [
      "defineProperty on prototype",
      "Object.defineProperty(Array.prototype, 'x', { value: 1 });",
      /prototype/,
    ],
    ["assign on builtin", "Object.assign(Math, { x: 1 });", /Object.assign on a built-in/],
    ["with", "with (args) { return x; }", /with statements/],
    ["debugger", "debugger;", /debugger/],
    ["process", "return process.env;", /`process` is refused/],
    ["globalThis", "return globalThis;", /`globalThis` is refused/],
    ["this in the tool", "return this;", /`this`/],
    ["WebAssembly", "return WebAssembly.compile(new Uint8Array());", /WebAssembly/],
    ["SharedArrayBuffer", "return new SharedArrayBuffer(8);", /shared memory/],
    ["Atomics", "return Atomics.wait;", /Atomics/],
    ["timers", "setTimeout(() => {}, 1);", /no timers/],
    ["global console", "console.log(1);", /ctx.console/],
    ["global fetch", "return fetch('https://x');", /ctx.fetch/],
    ["caller", "return args.fn.caller;", /caller/],
    ["callee", "return arguments.callee;", /callee/],
    ["__defineGetter__", "args.__defineGetter__('x', () => 1);", /getters/],
    ["import.meta", "return import.meta;", /import|syntax error/],
  ];
  for (const [label, body, pattern] of refused) {
    it(`refuses ${label} with a sentence and a position`, () => {
      const violations = check(body);
      assert.ok(violations.length > 0, `${label} was accepted`);
      assert.ok(
        violations.some((v) => pattern.test(v.message)),
        `${label}: ${JSON.stringify(violations)}`,
      );
      for (const v of violations) {
        assert.ok(v.line >= 1 && v.column >= 1, `${label}: position ${v.line}:${v.column}`);
        assert.ok(v.message.length > 20, `${label}: message too short to act on: ${v.message}`);
      }
    });
  }

  it("allows `this` inside methods and classes of the tool's own making", () => {
    const body = `
      const counter = { n: 0, add() { this.n += 1; return this.n; } };
      class Box { value = 1; get() { return this.value; } }
      return counter.add() + new Box().get();`;
    assert.deepEqual(check(body), []);
  });

  it("allows only declared names and the sandbox's globals", () => {
    const body = `
      const { a, b: [first, ...others] = [], ...restOf } = args;
      function helper(x = 1, { y } = {}) { return x + (y ?? 0); }
      class Thing {}
      outer: for (const item of [a, first, ...others]) { try { helper(item); } catch (problem) { continue outer; } }
      const shorthand = { a, restOf, thing: new Thing(), n: parseInt("1", 10) + Number.NaN };
      if (typeof URL === "function") return null;
      return [shorthand, arguments.length, new Uint8Array(2), encodeURIComponent("x"), Infinity];`;
    assert.deepEqual(check(body), []);
    const [url, unknown] = check("return [new URL(args.u), notDeclaredAnywhere];");
    assert.match(url?.message ?? "", /`URL` is not defined in the sandbox: parse URLs with string methods/);
    assert.match(unknown?.message ?? "", /`notDeclaredAnywhere` is not defined in the sandbox: declare it/);
    assert.deepEqual([unknown?.line, unknown?.column], [2, 26]);
  });

  it("points at the offending token", () => {
    const [violation] = check("  const x = 1;\n  return require('x');");
    assert.equal(violation?.line, 3);
    assert.equal(violation?.column, 10);
  });
});
