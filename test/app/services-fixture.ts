// What the app's service tests share: a real registry over a real data folder (a temporary FileStore) on a
// small catalog written for the test, and the provenance of a tool synthesized for an agent key.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SynthesisProvenance, Tool } from "../../src/catalog/index.ts";
import { ToolRegistry } from "../../src/catalog/index.ts";
import { FileStore } from "../../src/store/index.ts";

export const CATALOG_TOOLS = [
  {
    name: "get_weather",
    description: "Current weather for a city.",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "send_note",
    description: "Send a short note to a colleague.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
];

/** A tool synthesized for an agent key's request: pending, that key's own until promoted. */
export const pendingFor = (owner: string): SynthesisProvenance => ({
  status: "pending",
  owner,
  at: new Date().toISOString(),
  request: "count the words of a text",
});

export const PRIVATE_TOOL: Tool = {
  name: "count.words",
  description: "Count the words of a text.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};

export interface Fixture {
  folder: string;
  catalog: string;
  store: FileStore;
  registry: ToolRegistry;
  close(): Promise<void>;
}

export async function openFixture(): Promise<Fixture> {
  const folder = await mkdtemp(join(tmpdir(), "switchboard-services-"));
  const catalog = join(folder, "catalog.json");
  await writeFile(catalog, JSON.stringify({ tools: CATALOG_TOOLS }));
  const store = new FileStore(join(folder, "data"));
  const registry = await ToolRegistry.open({ store, catalog });
  return {
    folder,
    catalog,
    store,
    registry,
    async close() {
      await store.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
