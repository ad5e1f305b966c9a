// The index of one catalog in one data folder: the single place that decides where it lives, so every CLI
// command and both servers open the same files (vectors, calibration, learned queries) over the same
// tools (the catalog plus the data folder's overlay of tools put through the API or synthesized).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Tool, ToolRegistry } from "../catalog/index.ts";
import { BUNDLED_CATALOG } from "../config/index.ts";
import { createEmbedder, type Embedder, type EmbedderKind } from "../embed/index.ts";
import { Router, type RouterEmbedder } from "../router/index.ts";
import type { DataStore } from "../store/index.ts";
import { parseConfig, type SwitchboardConfig, type SwitchboardOptions } from "./config.ts";
import { openScaleOut, type ScaleOut } from "./scale-out.ts";

/**
 * The bundled catalog's index, built by `npm run build:index` and shipped, so that a fresh data folder
 * starts in seconds instead of embedding every text first. It is only a head start: the router checks
 * the embedder and parameters it was built with, and embeds whatever the catalog changed since.
 */
export const PREBUILT_INDEX = fileURLToPath(new URL("../../prebuilt/bundled-catalog/", import.meta.url));
const PREBUILT_FILES = ["manifest.json", "dense.hnsw"] as const;

export interface IndexOptions {
  store: DataStore;
  /** The catalog's path as configured: it names the index, so catalogs sharing a data folder keep apart. */
  catalog: string;
  /** The tools to index: the registry's list (catalog plus overlay). */
  tools: readonly Tool[];
  embedder: { kind: EmbedderKind; model?: string | undefined };
  /** What embeds the index's texts, around the query embedder (replicas share stored embeddings). */
  indexEmbedder?: (embedder: Embedder) => RouterEmbedder;
  /** An index of its own beside the catalog's, e.g. for an evaluation with its own learned examples. */
  variant?: string;
  onProgress?: (done: number, total: number) => void;
  /** Serve on BM25 while a large dense index fills (the servers); one-shot commands wait for all of it. */
  serveWhileIndexing?: boolean;
}

/**
 * From how many texts to embed a serving index fills its dense half in the background: about a second of
 * the native embedder's batched rate, so a catalog that changed a little still opens complete.
 */
export const BACKGROUND_FILL_FROM_TEXTS = 1000;

export interface CatalogIndex {
  router: Router;
  embedder: Embedder;
  /** True when a fresh data folder started from the shipped index of the bundled catalog. */
  seeded: boolean;
  close(): Promise<void>;
}

/** The data store folder (under router/) of a catalog's index. */
export function indexKey(catalog: string, variant?: string): string {
  const digest = createHash("sha256").update(resolve(catalog)).digest("hex").slice(0, 16);
  return `catalog-${digest}${variant ? `-${variant}` : ""}`;
}

export async function openIndex(options: IndexOptions): Promise<CatalogIndex> {
  const key = indexKey(options.catalog, options.variant);
  const seeded = options.variant === undefined && (await seedBundled(options.store, options.catalog, key));
  const embedder = await createEmbedder({
    kind: options.embedder.kind,
    ...(options.embedder.model ? { model: options.embedder.model } : {}),
  });
  try {
    const router = await Router.open({
      tools: options.tools,
      store: options.store,
      embedder,
      ...(options.indexEmbedder ? { indexEmbedder: options.indexEmbedder(embedder) } : {}),
      key,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.serveWhileIndexing ? { fillInBackgroundFrom: BACKGROUND_FILL_FROM_TEXTS } : {}),
    });
    return {
      router,
      embedder,
      seeded,
      async close() {
        await router.close();
        await embedder.close();
      },
    };
  } catch (error) {
    await embedder.close();
    throw error;
  }
}

/** Copies the shipped index into a data folder that has none yet for the bundled catalog. */
async function seedBundled(store: DataStore, catalog: string, key: string): Promise<boolean> {
  if (resolve(catalog) !== resolve(BUNDLED_CATALOG)) return false;
  if ((await store.readBytes(`router/${key}/manifest.json`)) !== undefined) return false;
  let files: Buffer[];
  try {
    files = await Promise.all(PREBUILT_FILES.map((name) => readFile(`${PREBUILT_INDEX}${name}`)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  // The graph before the manifest that names its checksum, as the router writes them.
  await store.writeBytes(`router/${key}/dense.hnsw`, files[1] as Buffer);
  await store.writeBytes(`router/${key}/manifest.json`, files[0] as Buffer);
  return true;
}

/** The tools of the configured catalog and store's overlay, admitted under the operator's rules. */
export function openConfiguredRegistry(config: SwitchboardConfig, store: DataStore): Promise<ToolRegistry> {
  return ToolRegistry.open({
    store,
    catalog: config.catalog,
    admission: { mcpCommands: config.security.mcpCommands, toolSecrets: config.security.toolSecrets },
  });
}

/** The index of the registry's tools in the configured store, its texts embedded once across replicas. */
export function openConfiguredIndex(
  config: SwitchboardConfig,
  scaleOut: ScaleOut,
  registry: ToolRegistry,
  options: Pick<IndexOptions, "variant" | "onProgress" | "serveWhileIndexing"> = {},
): Promise<CatalogIndex> {
  return openIndex({
    store: scaleOut.store,
    catalog: config.catalog,
    tools: registry.list(),
    embedder: config.embedder,
    indexEmbedder: (embedder) => scaleOut.indexEmbedder(embedder),
    ...options,
  });
}

/**
 * The index with the tools it covers, for the commands that work on the index itself (index, route,
 * calibrate, feedback, eval): the same one a Switchboard opened on this configuration uses, in the same
 * store, so what they learn or fit is what the service reads.
 */
export async function openCatalogIndex(
  settings: SwitchboardOptions,
  options: { variant?: string; onProgress?: (done: number, total: number) => void } = {},
): Promise<CatalogIndex & { registry: ToolRegistry }> {
  // The index holds no hot state: Redis is left out, whatever the configuration names.
  const { redis: _hotState, ...config } = parseConfig(settings);
  // The store a Switchboard on this configuration opens: PostgreSQL with SWITCHBOARD_DATABASE_URL.
  const scaleOut = await openScaleOut(config);
  const { store } = scaleOut;
  try {
    const registry = await openConfiguredRegistry(config, store);
    const opened = await openConfiguredIndex(config, scaleOut, registry, options);
    return {
      ...opened,
      registry,
      async close() {
        await opened.close();
        await scaleOut.close();
      },
    };
  } catch (error) {
    await scaleOut.close();
    throw error;
  }
}
