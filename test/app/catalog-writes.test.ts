// CatalogWrites: tools put, promoted and deleted through the service. Every refusal is one AppError naming
// the problem, and the registry (stored in a real data folder) is unchanged by it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CatalogWrites } from "../../src/app/catalog-writes.ts";
import { AppError } from "../../src/app/index.ts";
import { LiveIndex } from "../../src/app/live-index.ts";
import { ToolDirectory } from "../../src/app/tool-directory.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { createLogger } from "../../src/config/index.ts";
import { type Fixture, openFixture, PRIVATE_TOOL, pendingFor } from "./services-fixture.ts";

const agent = { role: "agent" as const, id: "agent:a" };
let fixture: Fixture;
let writes: CatalogWrites;
let browserChecks = 0;

before(async () => {
  fixture = await openFixture();
  const { registry } = fixture;
  const logger = createLogger("silent");
  // The index is never opened here: a write before it opens needs no index update.
  const index = new LiveIndex({
    registry,
    open: () => Promise.reject(new Error("the index is not opened in these tests")),
    embedAhead: () => Promise.reject(new Error("nothing is embedded before the index opens")),
    logger,
  });
  writes = new CatalogWrites({
    registry,
    directory: new ToolDirectory(registry),
    index,
    requireBrowser: async (capabilities) => {
      browserChecks++;
      if (capabilities?.browser) throw new AppError("unavailable", "Chromium is not installed here");
    },
    logger,
  });
});
after(() => fixture.close());

const rejectsWith = async (work: Promise<unknown>, code: string, message: RegExp) => {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
};

test("a tool put through the API is stored with a version and listed as from the api", async () => {
  const stored = await writes.put({ ...PRIVATE_TOOL, name: "word_count" });
  assert.equal(stored.version, 1);
  assert.equal(fixture.registry.entry("word_count")?.origin, "api");
});

test("an invalid tool is refused as invalid with its issues, and nothing is stored", async () => {
  const before = fixture.registry.list().length;
  await assert.rejects(
    writes.put({ name: "bad tool", description: "x", inputSchema: { type: "object" } } as Tool),
    (error) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, "invalid");
      assert.ok((error.issues?.length ?? 0) > 0, "the issues name what is wrong");
      return true;
    },
  );
  assert.equal(fixture.registry.list().length, before);
});

test("a sandboxed tool granted the browser is refused where Chromium is missing, before it is stored", async () => {
  const checked = browserChecks;
  await rejectsWith(
    writes.put({
      name: "read_page",
      description: "Read a page.",
      inputSchema: { type: "object" },
      binding: {
        type: "sandbox",
        code: "async function read_page(args, ctx) { return 1; }",
        capabilities: { browser: { allow: ["https://example.org"] } },
      },
    } as unknown as Tool),
    "unavailable",
    /Chromium/,
  );
  assert.equal(browserChecks, checked + 1);
  assert.equal(fixture.registry.get("read_page"), undefined);
});

test("promoting: an unknown name is not_found, a published tool a conflict, a pending one is published", async () => {
  await rejectsWith(writes.promote("no_such_tool", undefined), "not_found", /no_such_tool/);
  await rejectsWith(writes.promote("get_weather", undefined), "conflict", /already published/);
  await fixture.registry.put(PRIVATE_TOOL, "synthesized", pendingFor(agent.id));
  const promoted = await writes.promote(PRIVATE_TOOL.name, undefined);
  assert.equal(promoted.synthesis?.status, "published");
  assert.equal(fixture.registry.entry(PRIVATE_TOOL.name)?.synthesis?.status, "published");
});

test("deleting an unknown name is not_found naming the nearest tool; a known one is gone after", async () => {
  await rejectsWith(writes.delete("get_wether", undefined), "not_found", /get_weather/);
  await writes.delete("send_note", undefined);
  assert.equal(fixture.registry.get("send_note"), undefined);
});
