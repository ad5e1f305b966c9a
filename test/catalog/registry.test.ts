import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { OVERLAY_KEY, type ToolChange, ToolRegistry, ToolValidationError } from "../../src/catalog/index.ts";
import { FileStore, StoreError } from "../../src/store/index.ts";

const weather = {
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), "sb-registry-"));
  const catalog = join(dir, "catalog.json");
  await writeFile(catalog, JSON.stringify([weather]));
  const store = new FileStore(join(dir, "data"));
  return { catalog, store };
}

function recordChanges(registry: ToolRegistry): string[] {
  const seen: string[] = [];
  registry.on("change", (change: ToolChange) => seen.push(`${change.type} ${change.tool.name}`));
  return seen;
}

test("the catalog's tools are listed with origin catalog and version 1", async () => {
  const { catalog, store } = await setup();
  const registry = await ToolRegistry.open({ catalog, store });
  assert.deepEqual(
    registry.list().map((t) => t.name),
    ["get_weather"],
  );
  assert.equal(registry.entry("get_weather")?.origin, "catalog");
  assert.equal(registry.entry("get_weather")?.version, 1);
  assert.equal(registry.get("missing"), undefined);
});

test("a put is validated, versioned, announced and persisted for the next process", async () => {
  const { catalog, store } = await setup();
  const registry = await ToolRegistry.open({ catalog, store });
  const changes = recordChanges(registry);
  const added = await registry.put({ ...weather, name: "get_time", description: "Time in a city" }, "api");
  assert.equal(added.version, 1);
  assert.equal(added.origin, "api");
  const replaced = await registry.put({ ...weather, description: "Weather now" }, "synthesized");
  assert.equal(replaced.version, 2, "a put over a catalog tool continues its version");
  assert.equal(registry.get("get_weather")?.description, "Weather now");
  assert.deepEqual(changes, ["put get_time", "put get_weather"]);

  const reopened = await ToolRegistry.open({ catalog, store });
  assert.equal(reopened.entry("get_weather")?.origin, "synthesized");
  assert.equal(reopened.get("get_weather")?.version, 2);
  assert.equal(reopened.get("get_time")?.description, "Time in a city");
});

test("a bad put names the fields and leaves what is stored untouched", async () => {
  const { catalog, store } = await setup();
  const registry = await ToolRegistry.open({ catalog, store });
  await registry.put({ ...weather, name: "kept", description: "Stays" }, "api");
  const before = await readFile(store.pathOf(OVERLAY_KEY), "utf8");
  const changes = recordChanges(registry);

  await assert.rejects(
    registry.put(
      { ...weather, name: "kept", inputSchema: { type: "object", properties: { x: { type: "strin" } } } },
      "api",
    ),
    (error: unknown) => {
      assert.ok(error instanceof ToolValidationError);
      assert.deepEqual(
        error.issues.map((i) => i.path),
        ["inputSchema.properties.x.type"],
      );
      assert.match(error.message, /tool "kept" is invalid: inputSchema\.properties\.x\.type/);
      return true;
    },
  );
  await assert.rejects(
    registry.put({ name: "kept", description: " ", inputSchema: { type: "array" } }, "api"),
    (error: unknown) => {
      assert.ok(error instanceof ToolValidationError);
      assert.deepEqual(error.issues.map((i) => i.path).sort(), ["description", "inputSchema.type"]);
      return true;
    },
  );
  assert.equal(await readFile(store.pathOf(OVERLAY_KEY), "utf8"), before);
  assert.equal(registry.get("kept")?.description, "Stays");
  assert.deepEqual(changes, []);
});

test("names of JavaScript object internals are refused; other object-ish names are stored faithfully", async () => {
  const { catalog, store } = await setup();
  const registry = await ToolRegistry.open({ catalog, store });
  for (const name of ["__proto__", "constructor", "prototype"]) {
    await assert.rejects(registry.put({ ...weather, name }, "api"), (error: ToolValidationError) => {
      assert.deepEqual(
        error.issues.map((i) => i.path),
        ["name"],
      );
      return true;
    });
  }
  await registry.put({ ...weather, name: "hasOwnProperty" }, "api");
  await registry.put({ ...weather, name: "toString" }, "api");
  const reopened = await ToolRegistry.open({ catalog, store });
  assert.deepEqual(
    reopened
      .list()
      .map((t) => t.name)
      .sort(),
    ["get_weather", "hasOwnProperty", "toString"],
  );
  assert.equal(reopened.entry("toString")?.version, 1);
});

test("delete hides a catalog tool across reopen, and a later put continues the version", async () => {
  const { catalog, store } = await setup();
  const registry = await ToolRegistry.open({ catalog, store });
  const changes = recordChanges(registry);
  assert.equal(await registry.delete("get_weather"), true);
  assert.equal(await registry.delete("get_weather"), false);
  assert.equal(await registry.delete("never_existed"), false);
  assert.equal(registry.get("get_weather"), undefined);
  assert.deepEqual(changes, ["delete get_weather"]);
  assert.equal((await ToolRegistry.open({ catalog, store })).get("get_weather"), undefined);

  const back = await registry.put(weather, "api");
  assert.equal(back.version, 3, "catalog 1, tombstone 2, put 3");
  assert.deepEqual(changes, ["delete get_weather", "put get_weather"]);
});

test("two registries on one data folder writing at once lose no update, and reload announces them", async () => {
  const { catalog, store } = await setup();
  const first = await ToolRegistry.open({ catalog, store });
  const second = await ToolRegistry.open({ catalog, store: new FileStore(store.root) });
  const names = Array.from({ length: 6 }, (_, i) => `tool_${i}`);
  await Promise.all(
    names.map((name, i) =>
      (i % 2 === 0 ? first : second).put({ ...weather, name, description: `Tool ${i}` }, "api"),
    ),
  );
  await Promise.all([first.put(weather, "api"), second.put(weather, "api")]);
  await first.reload();
  assert.deepEqual(
    first
      .list()
      .map((t) => t.name)
      .sort(),
    ["get_weather", ...names],
  );
  assert.equal(first.get("get_weather")?.version, 3, "both puts over version 1 counted");

  const changes = recordChanges(first);
  await second.put({ ...weather, name: "from_second" }, "synthesized");
  await second.delete("tool_0");
  await first.reload();
  assert.deepEqual(changes, ["put from_second", "delete tool_0"]);
  assert.equal(first.entry("from_second")?.origin, "synthesized");
});

test("an unreadable overlay is reported, never overwritten", async () => {
  const { catalog, store } = await setup();
  const registry = await ToolRegistry.open({ catalog, store });
  await store.writeBytes(OVERLAY_KEY, "{ torn");
  await assert.rejects(ToolRegistry.open({ catalog, store }), StoreError);
  await assert.rejects(registry.put({ ...weather, name: "other" }, "api"), StoreError);
  assert.equal(await readFile(store.pathOf(OVERLAY_KEY), "utf8"), "{ torn");
  assert.ok(registry.get("get_weather"), "the last good view stays in use");
});

test("two processes putting at once lose no tool and no version", async () => {
  const { store } = await setup();
  const putter = join(import.meta.dirname, "../fixtures/registry-putter.ts");
  const run = promisify(execFile);
  const times = 12;
  await Promise.all(
    ["a", "b"].map((prefix) => run(process.execPath, [putter, store.root, prefix, String(times)])),
  );
  const registry = await ToolRegistry.open({ store });
  assert.equal(registry.list().length, 2 * times + 1);
  assert.equal(registry.get("shared")?.version, 2 * times, "every put of the shared tool counted");
});
