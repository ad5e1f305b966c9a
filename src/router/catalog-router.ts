// Opening a router for a catalog on disk, as the CLI commands do: the catalog is loaded and validated, the
// embedder created, and the index lives in the data folder under a key derived from the catalog's path, so
// different catalogs sharing a data folder never clobber each other's index.
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { z } from "zod";
import { loadCatalog } from "../catalog/index.ts";
import { createEmbedder, EMBEDDER_KINDS, type Embedder, type EmbedderKind } from "../embed/index.ts";
import { FileStore } from "../store/index.ts";
import { Router } from "./router.ts";

export interface CatalogRouterOptions {
  catalog: string;
  data: string;
  embedder: EmbedderKind;
  model?: string;
  /** Extra key part, e.g. for an evaluation with its own learned examples. */
  variant?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface CatalogRouter {
  router: Router;
  embedder: Embedder;
  close(): Promise<void>;
}

export function catalogKey(catalog: string, variant?: string): string {
  const path = resolve(catalog);
  const digest = createHash("sha256").update(path).digest("hex").slice(0, 16);
  return `catalog-${digest}${variant ? `-${variant}` : ""}`;
}

export async function openCatalogRouter(options: CatalogRouterOptions): Promise<CatalogRouter> {
  const tools = await loadCatalog(options.catalog);
  const embedder = await createEmbedder({
    kind: options.embedder,
    ...(options.model ? { model: options.model } : {}),
  });
  try {
    const router = await Router.open({
      tools,
      store: new FileStore(options.data),
      embedder,
      key: catalogKey(options.catalog, options.variant),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    return {
      router,
      embedder,
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

/** Flags shared by the commands that open a catalog's router (index, route, eval, calibrate, feedback). */
export const catalogFlags = {
  catalog: { type: "string" },
  data: { type: "string" },
  embedder: { type: "string" },
  model: { type: "string" },
  json: { type: "boolean" },
} as const;

export function catalogOptionsSchema(env: { catalog: string; data: string; embedder: EmbedderKind }) {
  return z.object({
    catalog: z.string().min(1).default(env.catalog),
    data: z.string().min(1).default(env.data),
    embedder: z
      .string()
      .default(env.embedder)
      .refine((k): k is EmbedderKind => (EMBEDDER_KINDS as readonly string[]).includes(k), {
        message: `unknown embedder; use ${EMBEDDER_KINDS.join(" or ")}`,
      }),
    model: z.string().min(1).optional(),
    json: z.boolean().default(false),
  });
}
