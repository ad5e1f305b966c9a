import assert from "node:assert/strict";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileStore } from "../../src/store/index.ts";

test("list shows stored keys and skips what a crashed write or a lock leaves behind", async () => {
  const store = new FileStore(await mkdtemp(join(tmpdir(), "sb-store-")));
  await store.writeJson("catalog/overlay.json", { tools: [] });
  await store.writeBytes("index/a/vectors.bin", new Uint8Array([1, 2, 3]));
  await writeFile(store.pathOf("catalog/overlay.json.3141592653"), "{ torn");
  await writeFile(store.pathOf("index/a/vectors.bin.123.abc.tmp"), "partial");
  assert.deepEqual(await store.list(""), ["catalog/overlay.json", "index/a/vectors.bin"]);
  assert.deepEqual(await store.list("missing"), []);
});

test("a key that escapes the data folder is refused", () => {
  const store = new FileStore("/tmp/sb-store-root");
  assert.throws(() => store.pathOf("../etc/passwd"), /escapes the data folder/);
});
