// A sandboxed tool and the session context: ctx.context is a copy of what it may read, ctx.setContext
// collects its changes, and a tool given no context has neither.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createProvider } from "../../src/bindings/index.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { Sandbox } from "../../src/synth/index.ts";
import { scaled } from "../load-factor.ts";

// A tool's answer may come late on a busy machine: the default deadline scales with the load (load-factor.ts).
const sandbox = new Sandbox({ defaultTimeoutMs: Math.round(scaled(2_000)) });
after(() => sandbox.close());

const code = `async function visit(args, ctx) {
  const before = ctx.context.visits ?? 0;
  ctx.context.visits = 999; // a copy: changing it changes nothing outside
  ctx.setContext({ visits: before + 1 });
  ctx.setContext({ last: args.page, admin: true });
  return { before, city: ctx.context.city ?? null };
}`;

test("ctx.context is a copy, and setContext's changes are merged for the host", async () => {
  const context = { visits: 2, city: "Lisbon" };
  const result = await sandbox.run({ code, name: "visit", args: { page: "home" }, context });
  assert.deepEqual(result.value, { before: 2, city: "Lisbon" });
  assert.deepEqual(result.contextChanges, { visits: 3, last: "home", admin: true });
  assert.deepEqual(context, { visits: 2, city: "Lisbon" }, "the host's object is untouched");
});

test("a run without a context offers neither ctx.context nor ctx.setContext", async () => {
  const probe = `function probe(args, ctx) { return { context: "context" in ctx, set: typeof ctx.setContext }; }`;
  const result = await sandbox.run({ code: probe, name: "probe", args: {} });
  assert.deepEqual(result.value, { context: false, set: "undefined" });
  assert.equal(result.contextChanges, undefined);
});

test("setContext refuses what is not a plain object of JSON values", async () => {
  const bad = `function bad(args, ctx) { ctx.setContext(args.kind === "list" ? [1] : { f: () => 1 }); return 1; }`;
  await assert.rejects(
    sandbox.run({ code: bad, name: "bad", args: { kind: "list" }, context: {} }),
    /setContext/,
  );
  await assert.rejects(sandbox.run({ code: bad, name: "bad", args: { kind: "fn" }, context: {} }));
});

test("a sandbox binding gives the tool only its read keys and keeps only its write keys", async () => {
  const tool: Tool = { name: "visit", description: "d", inputSchema: { type: "object" } };
  const provider = createProvider(
    { type: "sandbox", code, context: { read: ["visits"], write: ["visits", "last"] } },
    tool,
    { sandbox },
  );
  const context = { visits: 5, city: "Porto" };
  const result = await provider.invoke(
    { page: "about" },
    { signal: new AbortController().signal, callId: "c", context },
  );
  const modifier = Symbol.for("switchboard.contextModifier");
  const { output, [modifier]: patch } = result as { output: unknown; [modifier]: unknown };
  assert.deepEqual(output, { before: 5, city: null }, "city was not declared as read");
  assert.deepEqual(patch, { visits: 6, last: "about" }, "admin was not declared as written");
});
