import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startEmbedder } from "../../src/embed/embedder.ts";
import { type Embedder, EmbedError } from "../../src/embed/index.ts";

const standIn = new URL("./stand-in-worker.ts", import.meta.url);

/** The stand-in's vector is [batch size, text length, thread id, 1] scaled to unit length. */
function decode(vector: Float32Array | undefined): { batchSize: number; textLength: number; thread: number } {
  assert.ok(vector);
  const scale = vector[3] as number;
  return {
    batchSize: Math.round((vector[0] as number) / scale),
    textLength: Math.round((vector[1] as number) / scale),
    thread: Math.round((vector[2] as number) / scale),
  };
}

describe("worker pool with micro-batching (stand-in model)", () => {
  let embedder: Embedder;
  before(async () => {
    embedder = await startEmbedder(standIn, undefined, 1);
  });
  after(() => embedder.close());

  it("takes id and dimension from the model loaded in the worker", () => {
    assert.equal(embedder.id, "stand-in@1");
    assert.equal(embedder.dimension, 4);
  });

  it("merges concurrent single-text calls into shared batches and returns each caller its own vector", async () => {
    const texts = Array.from({ length: 20 }, (_, index) => "x".repeat(index + 1));
    const results = await Promise.all(texts.map((text) => embedder.embed([text])));
    const decoded = results.map(([vector]) => decode(vector));
    assert.deepEqual(
      decoded.map((entry) => entry.textLength),
      texts.map((text) => text.length),
    );
    assert.ok(
      decoded.every((entry) => entry.batchSize > 1),
      "every call was computed in a merged batch",
    );
    const batchSizes = decoded.map((entry) => entry.batchSize);
    assert.ok(Math.max(...batchSizes) <= 20);
  });

  it("cuts a large call into batches of at most 64 and keeps the order", async () => {
    const texts = Array.from({ length: 150 }, (_, index) => "y".repeat(index + 1));
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, 150);
    const decoded = vectors.map(decode);
    assert.deepEqual(
      decoded.map((entry) => entry.textLength),
      texts.map((text) => text.length),
    );
    assert.deepEqual([...new Set(decoded.map((entry) => entry.batchSize))], [64, 22]);
  });

  it("serves a query before the rest of a large call that was already waiting", async () => {
    const finished: string[] = [];
    const catalog = embedder.embed(Array.from({ length: 640 }, (_, index) => `tool ${index}`));
    const query = embedder.embed(["a query"]);
    await Promise.all([
      catalog.then(() => finished.push("catalog")),
      query.then(() => finished.push("query")),
    ]);
    assert.deepEqual(finished, ["query", "catalog"]);
  });

  it("returns unit vectors and serves repeated texts from the cache", async () => {
    const [first] = await embedder.embed(["repeated query"]);
    const [again] = await Promise.all([embedder.embed(["repeated query"]), embedder.embed(["other text"])]);
    assert.ok(first && again?.[0]);
    assert.ok(Math.abs(first.reduce((sum, value) => sum + value * value, 0) - 1) < 1e-6);
    // Computed alone the first time; a fresh computation now would share a batch with "other text".
    assert.equal(decode(again[0]).batchSize, 1);
    again[0].fill(0);
    const [third] = await embedder.embed(["repeated query"]);
    assert.deepEqual(third, first, "changing a returned vector does not change the cache");
  });

  it("rejects a text that is not a string, naming its position", async () => {
    await assert.rejects(
      embedder.embed(["fine", 42 as unknown as string]),
      (error: Error) => error instanceof EmbedError && error.message === "texts[1] is number, not a string",
    );
  });

  it("keeps the texts of large calls out of the cache", async () => {
    const texts = Array.from({ length: 64 }, (_, index) => `catalog entry ${index}`);
    await embedder.embed(texts);
    const [vector] = await embedder.embed([texts[0] as string]);
    assert.equal(decode(vector).batchSize, 1, "computed again, not taken from the batch of 64");
  });

  it("returns an empty list for no texts", async () => {
    assert.deepEqual(await embedder.embed([]), []);
  });

  it("rejects a batch whose model call fails and keeps working", async () => {
    await assert.rejects(embedder.embed(["throw"]), /embedding failed: stand-in model failure/);
    assert.equal(decode((await embedder.embed(["after failure"]))[0]).textLength, 13);
  });
});

describe("two workers", () => {
  it("hold small calls while one worker computes queries, until they are a fair share", async () => {
    const embedder = await startEmbedder(standIn, undefined, 2);
    try {
      // All in one turn: the first call (8 texts) goes to a worker alone; the 4 single texts are fewer than
      // an idle worker's share of the 12 queries in the embedder, so they wait and then go 2 and 2.
      const first = embedder.embed(Array.from({ length: 8 }, (_, index) => `first ${index}`));
      const singles = Array.from({ length: 4 }, (_, index) => embedder.embed([`single ${index}`]));
      assert.deepEqual(
        (await first).map((vector) => decode(vector).batchSize),
        Array.from({ length: 8 }, () => 8),
      );
      const sizes = (await Promise.all(singles)).map(([vector]) => decode(vector).batchSize);
      assert.deepEqual(sizes, [2, 2, 2, 2]);
    } finally {
      await embedder.close();
    }
  });

  it("share the batches of a large call and return the vectors in order", async () => {
    const embedder = await startEmbedder(standIn, undefined, 2);
    try {
      const texts = Array.from({ length: 128 }, (_, index) => "z".repeat(index + 1));
      const decoded = (await embedder.embed(texts)).map(decode);
      assert.deepEqual(
        decoded.map((entry) => entry.textLength),
        texts.map((text) => text.length),
      );
      assert.equal(new Set(decoded.map((entry) => entry.thread)).size, 2);
    } finally {
      await embedder.close();
    }
  });

  it("reject a worker count that is not a whole number of at least 1", async () => {
    await assert.rejects(
      startEmbedder(standIn, undefined, 0),
      /workers must be a whole number of at least 1 \(got 0\)/,
    );
  });
});

describe("a worker that dies", () => {
  it("rejects every call in its batch with a clear error, then a new worker serves the next call", async () => {
    const embedder = await startEmbedder(standIn, undefined, 1);
    try {
      const before = decode((await embedder.embed(["before"]))[0]).thread;
      const dying = embedder.embed(["exit"]);
      const sharing = embedder.embed(["shares the batch"]);
      for (const call of [dying, sharing])
        await assert.rejects(
          call,
          (error: Error) =>
            error instanceof EmbedError &&
            /worker exited with code 7 while embedding 2 texts/.test(error.message),
        );
      const [vector] = await embedder.embed(["recovered"]);
      assert.equal(decode(vector).textLength, 9);
      assert.notEqual(decode(vector).thread, before, "a new worker thread computed it");
    } finally {
      await embedder.close();
    }
  });

  it("is not replaced by a worker that loads a different model", async () => {
    const folder = await mkdtemp(join(tmpdir(), "switchboard-embed-"));
    const idFile = join(folder, "model-id");
    await writeFile(idFile, "stand-in@1");
    const embedder = await startEmbedder(standIn, { idFile }, 1);
    try {
      await writeFile(idFile, "stand-in@2");
      await assert.rejects(embedder.embed(["exit"]), /worker exited with code 7/);
      await assert.rejects(
        embedder.embed(["after the model changed"]),
        /the restarted embedding worker loaded model stand-in@2, not stand-in@1/,
      );
      assert.equal(embedder.id, "stand-in@1");
    } finally {
      await embedder.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("fails calls still queued when the embedder closes", async () => {
    const embedder = await startEmbedder(standIn, undefined, 1);
    const running = embedder.embed(["a"]);
    const closing = embedder.close();
    await assert.rejects(running, /embedder closed/);
    await closing;
    await assert.rejects(embedder.embed(["b"]), /embedder is closed/);
  });
});
