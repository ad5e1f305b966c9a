// The PostgreSQL store on a real server: migrations raced by replicas starting together, locked
// read-modify-write across stores, embeddings computed once for all replicas, and a clear error while the
// database is away.
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { z } from "zod";
import { down, type Services, up } from "../../scripts/services.ts";
import { PgStore, StoreUnavailableError, sharedEmbeddings } from "../../src/store/index.ts";
import { listenerName } from "../../src/store/pg-listener.ts";
import { skipWithoutServices, tempDir } from "./harness.ts";

const counterSchema = z.object({ n: z.number() });

/** A stand-in embedder: deterministic vectors from the text, counting the texts it was asked for. */
function countingEmbedder() {
  const asked: string[] = [];
  return {
    asked,
    id: "stand-in@1",
    dimension: 4,
    async embed(texts: string[]) {
      asked.push(...texts);
      return texts.map((text) => Float32Array.from([text.length, text.charCodeAt(0), 0.1, -0.5]));
    },
  };
}

describe("the PostgreSQL store", { skip: skipWithoutServices() }, () => {
  let folder: string;
  let urls: Services;
  const stores: PgStore[] = [];
  const open = async () => {
    const store = await PgStore.open({ url: urls.databaseUrl, root: await tempDir("pg-local") });
    stores.push(store);
    return store;
  };

  before(async () => {
    folder = await tempDir("pg-services");
    urls = await up(folder, "postgres");
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await down(folder);
    await rm(folder, { recursive: true, force: true });
  });

  test("replicas starting together migrate once, then share documents with change notices", async () => {
    const [one, two, three] = await Promise.all([open(), open(), open()]);
    const { rows } = await (one as PgStore).pool.query("select version from switchboard_migrations");
    assert.deepEqual(
      rows.map((r) => r.version),
      [1, 2],
    );
    const heard = new Promise<void>((resolve) => (three as PgStore).subscribe("catalog/a.json", resolve));
    await (two as PgStore).writeJson("catalog/a.json", { n: 1 });
    await heard;
    assert.deepEqual(await (three as PgStore).readJson("catalog/a.json", counterSchema), { n: 1 });
    assert.deepEqual(await (one as PgStore).list("catalog"), ["catalog/a.json"]);
  });

  test("a change committed while the listener is gone is announced once it is back", async () => {
    const [one, two] = [await open(), await open()];
    const heard = new Promise<void>((resolve) => two.subscribe("missed.json", resolve));
    const admin = await one.pool.connect();
    try {
      await admin.query("begin");
      // Waits until this process's listeners have ended: the change below commits while they are away.
      await admin.query(
        "select pg_terminate_backend(pid, 5000) from pg_stat_activity where application_name = $1",
        [listenerName(process.pid)],
      );
      await admin.query("insert into switchboard_data (key, value) values ('missed.json', $1)", [
        Buffer.from('{"n":1}'),
      ]);
      await admin.query("commit");
    } finally {
      admin.release();
    }
    await heard;
    assert.deepEqual(await two.readJson("missed.json", counterSchema), { n: 1 });
    const { rows } = await one.pool.query("select key from switchboard_changes order by id desc limit 1");
    assert.deepEqual(rows, [{ key: "missed.json" }], "the change log names the key, not the data");
  });

  test("read-modify-write from two stores loses no update", async () => {
    const [one, two] = [await open(), await open()];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? one : two).updateJson("counter.json", counterSchema, (current) => ({
          n: (current?.n ?? 0) + 1,
        })),
      ),
    );
    assert.deepEqual(await one.readJson("counter.json", counterSchema), { n: 20 });
  });

  test("a text embedded through one replica is not embedded again by another", async () => {
    const [one, two] = [await open(), await open()];
    const first = countingEmbedder();
    const second = countingEmbedder();
    const a = await sharedEmbeddings(first, one.pool).embed(["alpha tool", "beta tool", "gamma tool"]);
    const b = await sharedEmbeddings(second, two.pool).embed(["beta tool", "delta tool", "alpha tool"]);
    assert.deepEqual(first.asked, ["alpha tool", "beta tool", "gamma tool"]);
    assert.deepEqual(second.asked, ["delta tool"]);
    assert.deepEqual(b[0], a[1]);
    assert.deepEqual(b[2], a[0]);
  });

  test("a write while the database is away fails with StoreUnavailableError and changes nothing", async () => {
    const store = await open();
    await store.writeJson("kept.json", { n: 1 });
    await down(folder, "postgres");
    try {
      await assert.rejects(store.writeJson("kept.json", { n: 2 }), StoreUnavailableError);
      await assert.rejects(
        store.updateJson("kept.json", counterSchema, () => ({ n: 3 })),
        StoreUnavailableError,
      );
    } finally {
      await up(folder, "postgres");
    }
    assert.deepEqual(await store.readJson("kept.json", counterSchema), { n: 1 });
  });
});
