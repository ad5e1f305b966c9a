// The token estimator measured against a real tokenizer (gpt-tokenizer, o200k_base) on a mixed corpus.
// The corpus is files pinned by package-lock.json plus generated numbers, so the measurement is repeatable.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { countTokens } from "gpt-tokenizer";
import { estimateTokens } from "../../src/dispatch/index.ts";
import { seeded } from "./harness.ts";

const modules = join(import.meta.dirname, "../../node_modules");
const read = (path: string, max = 40_000) => readFileSync(join(modules, path), "utf8").slice(0, max);
const random = seeded(7);

const corpus: Record<string, string> = {
  "prose: MIT license": read("p-retry/license"),
  "prose: p-retry readme": read("p-retry/readme.md"),
  "prose: cockatiel readme": read("cockatiel/readme.md", 20_000),
  "prose: fastify readme": read("fastify/README.md"),
  "code: cockatiel breaker": read("cockatiel/dist/CircuitBreakerPolicy.js"),
  "code: p-retry": read("p-retry/index.js"),
  "code: acorn": read("acorn/dist/acorn.mjs"),
  "json: zod package.json": read("zod/package.json"),
  "json: draft-07 meta-schema": JSON.stringify(JSON.parse(read("ajv/dist/refs/json-schema-draft-07.json"))),
  "json: fastify package.json": read("fastify/package.json"),
  "numbers: decimals": Array.from({ length: 2000 }, () => (random() * 1e6).toFixed(2)).join(","),
  "numbers: table": Array.from({ length: 400 }, (_, i) => [i, Math.floor(random() * 1e5)].join("\t")).join(
    "\n",
  ),
};

// The band this estimator is held to: each text within ±15%, the whole corpus within ±5%.
const PER_TEXT_BAND = 0.15;
const CORPUS_BAND = 0.05;

test("the estimator stays within its error band of o200k_base on prose, code, JSON and numbers", () => {
  let exactTotal = 0;
  let estimateTotal = 0;
  const report: string[] = [];
  for (const [name, text] of Object.entries(corpus)) {
    const exact = countTokens(text);
    const estimate = estimateTokens(text);
    exactTotal += exact;
    estimateTotal += estimate;
    const error = estimate / exact - 1;
    report.push(`${name}: exact ${exact}, estimate ${estimate} (${(error * 100).toFixed(1)}%)`);
    assert.ok(Math.abs(error) <= PER_TEXT_BAND, `${name} is off by ${(error * 100).toFixed(1)}%`);
  }
  const corpusError = estimateTotal / exactTotal - 1;
  assert.ok(Math.abs(corpusError) <= CORPUS_BAND, `corpus off by ${(corpusError * 100).toFixed(1)}%`);
  console.log(report.join("\n"));
});

test("the seed's chars × 0.75 rule overestimates English prose about threefold; the estimator does not", () => {
  const prose = corpus["prose: fastify readme"] ?? "";
  const exact = countTokens(prose);
  assert.ok((prose.length * 0.75) / exact > 2.5);
  assert.ok(estimateTokens(prose) / exact < 1.15);
});
