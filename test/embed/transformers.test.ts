// The transformers provider on a tiny BERT-shaped ONNX model that the project generates: the real loading
// path (tokenizer.json, ONNX Runtime session, mean pooling, normalisation), offline.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { TINY_MODEL_HIDDEN_SIZE, writeTinyModel } from "../../scripts/make-tiny-onnx-model.ts";
import { createEmbedder, type Embedder, EmbedError } from "../../src/embed/index.ts";

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

describe("transformers embedder on a generated tiny model", () => {
  let root: string;
  let folder: string;
  let embedder: Embedder;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "switchboard-embed-"));
    folder = await writeTinyModel(join(root, "tiny-bert"));
    embedder = await createEmbedder({ kind: "transformers", model: folder });
  });
  after(async () => {
    await embedder?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("loads offline from the folder, with the model's dimension and an id naming the model", () => {
    assert.equal(embedder.dimension, TINY_MODEL_HIDDEN_SIZE);
    assert.match(embedder.id, /^transformers:tiny-bert@[0-9a-f]{12}$/);
  });

  it("gives unit vectors, equal for equal texts and different for different texts", async () => {
    // The tokenizer lowercases, so the first and third are the same text to the model (and not to the cache).
    const [first, second, again] = await embedder.embed([
      "What is the weather forecast for my city?",
      "Send an email with the invoice",
      "what is the weather forecast for my city?",
    ]);
    assert.ok(first && second && again);
    for (const vector of [first, second]) {
      assert.equal(vector.length, TINY_MODEL_HIDDEN_SIZE);
      assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-5);
    }
    assert.deepEqual(again, first);
    assert.ok(dot(first, second) < 0.999);
  });

  it("gives a text the same vector alone as inside a padded batch", async () => {
    const [short] = await embedder.embed(["email"]);
    const [, inBatch] = await embedder.embed([
      "a much longer text that forces padding of the others",
      "email ",
    ]);
    assert.ok(short && inBatch);
    assert.ok(Math.abs(dot(short, inBatch) - 1) < 1e-5);
  });

  it("changes its id when the model's files change", async () => {
    const other = await writeTinyModel(join(root, "tiny-bert-wider"), TINY_MODEL_HIDDEN_SIZE * 2);
    const wider = await createEmbedder({ kind: "transformers", model: other });
    try {
      assert.equal(wider.dimension, TINY_MODEL_HIDDEN_SIZE * 2);
      assert.notEqual(wider.id.split("@")[1], embedder.id.split("@")[1]);
    } finally {
      await wider.close();
    }
  });
});

describe("transformers model folder problems", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "switchboard-embed-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("names the missing file in one clear error", async () => {
    const folder = await writeTinyModel(join(root, "incomplete"));
    await rm(join(folder, "onnx", "model.onnx"));
    await assert.rejects(
      createEmbedder({ kind: "transformers", model: folder }),
      (error: Error) =>
        error instanceof EmbedError &&
        error.message.includes(folder) &&
        /is missing onnx\/model\.onnx \(/.test(error.message),
    );
  });

  it("names the folder whose model file is not a valid ONNX model", async () => {
    const folder = await writeTinyModel(join(root, "corrupt"));
    await writeFile(join(folder, "onnx", "model.onnx"), "not a protobuf");
    await assert.rejects(
      createEmbedder({ kind: "transformers", model: folder }),
      (error: Error) =>
        error instanceof EmbedError && error.message.startsWith(`could not load model folder ${folder}: `),
    );
  });

  it("names a folder that does not exist", async () => {
    const folder = join(root, "nowhere");
    await assert.rejects(
      createEmbedder({ kind: "transformers", model: folder }),
      (error: Error) =>
        error instanceof EmbedError && error.message === `model folder ${folder} does not exist`,
    );
  });
});
