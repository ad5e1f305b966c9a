import assert from "node:assert/strict";
import { test } from "node:test";
import { countTokens } from "gpt-tokenizer";
import { applyBudget, fitsBudget } from "../../src/dispatch/budget.ts";
import { Dispatcher, estimateTokens, type Provider } from "../../src/dispatch/index.ts";
import { catalog, readTool, seeded } from "./harness.ts";

const words = (n: number, tag = "w") => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");

test("an over-budget text keeps its head and tail with a marker saying how much was cut", () => {
  const text = words(5000);
  const { output, omittedTokens } = applyBudget(text, 1000, estimateTokens);
  assert.equal(typeof output, "string");
  const cut = output as string;
  assert.ok(cut.startsWith("w0 w1 w2"));
  assert.ok(cut.endsWith("w4998 w4999"));
  const marker = cut.match(/\.\.\. \[output truncated, ~(\d+) tokens omitted\] \.\.\./);
  assert.ok(marker, "marker present");
  assert.ok(omittedTokens > 0);
  const kept = estimateTokens(cut);
  assert.ok(kept <= 1000 && kept >= 700, `kept ${kept} tokens of a 1000 budget (head 40% + tail 40%)`);
});

test("output under budget is returned as the same object, not a copy", () => {
  const output = { rows: [1, 2, 3], note: "short" };
  assert.equal(applyBudget(output, 1000, estimateTokens).output, output);
});

test("an over-budget JSON array stays valid JSON, keeps both ends and says which items were cut", () => {
  const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row ${i}` }));
  const { output } = applyBudget({ rows }, 1000, estimateTokens);
  const parsed = JSON.parse(JSON.stringify(output)) as { rows: unknown[] };
  assert.deepEqual(parsed.rows[0], { id: 0, name: "row 0" });
  assert.deepEqual(parsed.rows.at(-1), { id: 1999, name: "row 1999" });
  const marker = parsed.rows.find((r) => typeof r === "string") as string;
  assert.match(marker, /^\.\.\. \[output truncated, \d+ of 2000 items omitted, ~\d+ tokens\] \.\.\.$/);
  assert.ok(estimateTokens(JSON.stringify(output)) <= 1100);
});

test("a long string inside JSON is cut inside the string; small fields stay whole", () => {
  const value = { status: "ok", code: 200, log: words(5000) };
  const { output } = applyBudget(value, 800, estimateTokens);
  const cut = output as typeof value;
  assert.equal(cut.status, "ok");
  assert.equal(cut.code, 200);
  assert.match(cut.log, /^w0 w1 .*\.\.\. \[output truncated, ~\d+ tokens omitted\] \.\.\..* w4999$/s);
});

function budgetDispatcher(output: unknown, options = {}) {
  const provider: Provider = { id: "p", invoke: async () => output };
  const tools = catalog(
    readTool("reader"),
    readTool("terminal", { policy: { kind: "terminal" } }),
    readTool("tiny", { policy: { resultBudget: { tokens: 100 } } }),
  );
  return new Dispatcher({ tools, providers: () => [provider], options });
}

test("results are held to 8,000 tokens by default, 4,000 for terminal-like tools, or the tool's own budget", async () => {
  const text = words(2000);
  const tokens = estimateTokens(text);
  assert.ok(tokens > 4000 && tokens < 8000, `the text is ${tokens} tokens`);
  const dispatcher = budgetDispatcher(text);
  const [reader, terminal, tiny] = await dispatcher.execute([
    { id: "a", name: "reader", arguments: {} },
    { id: "b", name: "terminal", arguments: {} },
    { id: "c", name: "tiny", arguments: {} },
  ]);
  assert.ok(reader?.output === text, "the default budget leaves it whole");
  assert.equal(reader?.provenance.warnings, undefined);
  assert.ok(estimateTokens(terminal?.output as string) <= 4000);
  assert.match(terminal?.provenance.warnings?.[0] ?? "", /truncated to the 4000-token budget/);
  assert.ok(estimateTokens(tiny?.output as string) <= 100);
});

test("the exact tokenizer can be chosen for budgets", async () => {
  const text = words(3000);
  const [result] = await budgetDispatcher(text, { tokenizer: "exact" }).execute([
    { id: "a", name: "tiny", arguments: {} },
  ]);
  const cut = result?.output as string;
  const omitted = countTokens(text) - countTokens(cut);
  assert.match(result?.provenance.warnings?.[0] ?? "", new RegExp(`~${omitted} tokens omitted`));
});

test("a cached answer is held to the budget like a fresh one", async () => {
  const text = words(2000);
  const provider: Provider = { id: "p", invoke: async () => text };
  const t = readTool("cached", { policy: { resultBudget: { tokens: 100 }, cache: { ttlMs: 60_000 } } });
  const dispatcher = new Dispatcher({ tools: catalog(t), providers: () => [provider] });
  await dispatcher.execute([{ id: "a", name: "cached", arguments: {} }]);
  const [hit] = await dispatcher.execute([{ id: "b", name: "cached", arguments: {} }]);
  assert.equal(hit?.provenance.provider, "p");
  assert.equal(hit?.provenance.ageMs !== undefined, true, "served from the cache");
  assert.ok(estimateTokens(hit?.output as string) <= 100);
});

test("a truncated first-try answer gets its own provenance with the warning; plain first-try answers keep theirs clean", async () => {
  const provider: Provider = {
    id: "p",
    invoke: async (args) => (args.long ? words(5000) : "short"),
  };
  const tool = readTool("echo", { policy: { resultBudget: { tokens: 500 } } });
  const dispatcher = new Dispatcher({ tools: catalog(tool), providers: () => [provider] });
  const clean = { attempts: 1, stale: false, breakers: { p: "closed" }, provider: "p" };
  const [first] = await dispatcher.execute([{ id: "a", name: "echo", arguments: {} }]);
  const [cut] = await dispatcher.execute([{ id: "b", name: "echo", arguments: { long: true } }]);
  const [after] = await dispatcher.execute([{ id: "c", name: "echo", arguments: {} }]);
  assert.deepEqual(first?.provenance, clean);
  assert.deepEqual(after?.provenance, clean);
  assert.equal(cut?.status, "completed");
  assert.equal(cut?.provenance.provider, "p");
  assert.equal(cut?.provenance.attempts, 1);
  assert.deepEqual(cut?.provenance.breakers, { p: "closed" });
  assert.match(cut?.provenance.warnings?.[0] ?? "", /output truncated to the 500-token budget/);
});

test("an answer the size bound lets through untouched always fits its budget", () => {
  // Values near the bound: keys and strings with quotes, control characters and lone surrogates (whose
  // escapes are longest), numbers of every length, nested objects and arrays, and fields that are dropped.
  const random = seeded(7);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = () =>
    Array.from({ length: Math.floor(random() * 40) }, () =>
      pick(["a", '"', "\\", "\n", "\u0001", "\ud800", "é", "7"]),
    ).join("");
  const value = (depth: number): unknown => {
    const kind =
      depth > 2
        ? pick(["string", "number", "literal"])
        : pick(["string", "number", "literal", "object", "array"]);
    if (kind === "string") return text();
    if (kind === "number") return pick([0, -2.2250738585072014e-308, 123456789.123, 1e21]);
    if (kind === "literal") return pick([true, null, undefined]);
    if (kind === "array") return Array.from({ length: Math.floor(random() * 5) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: Math.floor(random() * 5) }, () => [text(), value(depth + 1)]),
    );
  };
  let letThrough = 0;
  for (let i = 0; i < 2_000; i++) {
    const output = { [text()]: value(0), n: value(1) };
    const tokens = estimateTokens(JSON.stringify(output));
    for (const budget of [tokens - 1, tokens, tokens + 5, 2 * tokens, 8 * tokens]) {
      if (!fitsBudget(output, budget, estimateTokens)) continue;
      letThrough++;
      assert.ok(
        tokens <= budget,
        `${JSON.stringify(output)} passed a ${budget}-token bound at ${tokens} tokens`,
      );
    }
  }
  assert.ok(letThrough > 1_000, "the bound lets small answers through");
});
