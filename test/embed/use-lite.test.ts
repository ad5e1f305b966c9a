import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createEmbedder, EMBEDDER_KINDS, type Embedder, EmbedError } from "../../src/embed/index.ts";

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

describe("use-lite embedder", () => {
  let embedder: Embedder;
  before(async () => {
    embedder = await createEmbedder({ kind: "use-lite" });
  });
  after(() => embedder.close());

  it("names its model and version and gives 512-d unit vectors", async () => {
    assert.equal(embedder.id, "use-lite@0.2.0");
    assert.equal(embedder.dimension, 512);
    const [vector] = await embedder.embed(["send an email to my manager"]);
    assert.ok(vector instanceof Float32Array);
    assert.equal(vector.length, 512);
    assert.ok(Math.abs(dot(vector, vector) - 1) < 1e-5);
  });

  it("places related texts closer than unrelated ones", async () => {
    const [weather, forecast, invoice] = await embedder.embed([
      "what is the weather tomorrow",
      "get the weather forecast for a city",
      "create an invoice for a customer",
    ]);
    assert.ok(weather && forecast && invoice);
    assert.ok(dot(weather, forecast) > dot(weather, invoice) + 0.1);
  });

  it("keeps the event loop ticking while a batch of 64 texts is embedded", async () => {
    const texts = Array.from(
      { length: 64 },
      (_, index) => `tool number ${index} reads a file and summarises it`,
    );
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
    }, 1);
    try {
      // One model call: were it computed on this thread, no timer could fire until it returned.
      const vectors = await embedder.embed(texts);
      assert.equal(vectors.length, 64);
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 2, `the timer fired ${ticks} times during the embedding`);
  });

  it("returns an empty list for no texts", async () => {
    assert.deepEqual(await embedder.embed([]), []);
  });
});

describe("createEmbedder", () => {
  it("rejects an unknown kind with the list of valid kinds", async () => {
    await assert.rejects(
      // @ts-expect-error: an unknown kind, as a caller outside TypeScript could pass
      createEmbedder({ kind: "word2vec" }),
      (error: Error) =>
        error instanceof EmbedError &&
        error.message.includes("word2vec") &&
        error.message.includes(EMBEDDER_KINDS.join(", ")),
    );
  });
});
