import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { SIMD_TS_PATH, simdModuleText } from "../../scripts/build-wasm.ts";
import { VectorStore } from "../../src/router/vector-store.ts";

function random(dimension: number, seed: number): Float32Array {
  let s = seed;
  return Float32Array.from({ length: dimension }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648 - 0.5;
  });
}

function plainDot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

test("the SIMD similarity equals a plain inner product, for dimensions on and off the kernel's step", () => {
  for (const dimension of [512, 13, 1]) {
    const store = new VectorStore(dimension);
    const vectors = Array.from({ length: 20 }, (_, i) => random(dimension, i + 1));
    vectors.forEach((v, label) => {
      store.set(label, v);
    });
    const query = random(dimension, 99);
    store.query(query);
    vectors.forEach((v, label) => {
      const expected = plainDot(query, v);
      assert.ok(
        Math.abs(store.similarity(label) - expected) < 1e-5,
        `dimension ${dimension}, label ${label}`,
      );
    });
    assert.equal(store.similarity(1000), -1, "an unknown label");
  }
});

test("growing the memory keeps every vector, and copies taken before stay valid", () => {
  const store = new VectorStore(512);
  const first = random(512, 7);
  store.set(0, first);
  const copy = store.get(0) as Float32Array;
  // 4,000 rows of 2 KiB: the memory starts at 64 KiB, so it grows several times.
  for (let label = 1; label < 4000; label++) store.set(label, random(512, label + 7));
  assert.deepEqual(store.get(0), first);
  assert.deepEqual(copy, first);
  assert.deepEqual(store.get(3999), random(512, 3999 + 7));
  store.query(first);
  assert.ok(Math.abs(store.similarity(0) - plainDot(first, first)) < 1e-4);
});

test("a deleted label is gone and its row is reused; replacing a vector keeps one row", () => {
  const store = new VectorStore(16);
  store.set(1, random(16, 1));
  store.set(2, random(16, 2));
  store.delete(1);
  assert.equal(store.has(1), false);
  assert.equal(store.get(1), undefined);
  store.set(3, random(16, 3));
  store.set(2, random(16, 4));
  assert.equal(store.size, 2);
  assert.deepEqual([...store.labels()].sort(), [2, 3]);
  assert.deepEqual(store.get(3), random(16, 3));
  assert.deepEqual(store.get(2), random(16, 4));
});

test("a vector of the wrong dimension is refused with a clear error", () => {
  const store = new VectorStore(8);
  assert.throws(() => store.set(0, new Float32Array(7)), /a vector of 7 dimensions for a store of 8/);
  assert.throws(() => store.query(new Float32Array(9)), /a vector of 9 dimensions for a store of 8/);
});

test("simd.ts is simd.wat compiled (npm run build:wasm)", async () => {
  assert.equal(await readFile(SIMD_TS_PATH, "utf8"), await simdModuleText());
});

test("search returns the k most similar live labels, best first, and only those the filter accepts", () => {
  for (const dimension of [512, 13]) {
    const store = new VectorStore(dimension);
    const vectors = new Map<number, Float32Array>();
    for (let label = 0; label < 300; label++) {
      const v = random(dimension, label + 7);
      store.set(label * 3, v);
      vectors.set(label * 3, v);
    }
    // Deleted rows are skipped; a reused row answers for its new label.
    for (const label of [0, 30, 600]) {
      store.delete(label);
      vectors.delete(label);
    }
    const fresh = random(dimension, 5000);
    store.set(1000, fresh);
    vectors.set(1000, fresh);
    const query = random(dimension, 4242);
    store.query(query);
    const expected = [...vectors]
      .map(([label, v]) => ({ label, similarity: plainDot(query, v) }))
      .sort((a, b) => b.similarity - a.similarity);
    const hits = store.search(32);
    assert.deepEqual(
      hits.map((h) => h.label),
      expected.slice(0, 32).map((e) => e.label),
      `dimension ${dimension}`,
    );
    hits.forEach((hit, i) => {
      assert.ok(Math.abs(hit.similarity - (expected[i]?.similarity as number)) < 1e-5);
    });
    const even = (label: number) => label % 2 === 0;
    assert.deepEqual(
      store.search(10, even).map((h) => h.label),
      expected
        .filter((e) => even(e.label))
        .slice(0, 10)
        .map((e) => e.label),
    );
    assert.equal(store.search(1000).length, vectors.size, "k beyond the size gives every live label");
  }
  assert.deepEqual(new VectorStore(4).search(5), [], "an empty store");
});
