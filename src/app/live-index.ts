// The catalog's index as the service keeps it: opened once, on first use or at start, and kept in step with
// the registry. Index updates run one at a time in change order, so a put followed by a delete cannot be
// reordered; catalog writes wait for their update (`settled`), so a tool answered as stored is routable.
import type { Tool, ToolRegistry } from "../catalog/index.ts";
import type { Logger } from "../config/index.ts";
import type { Embedder } from "../embed/index.ts";
import { type DenseState, Router } from "../router/index.ts";
import type { CatalogIndex } from "./catalog-index.ts";
import type { EmbedderHealth, ReadyReport } from "./types.ts";

export interface LiveIndexDeps {
  registry: ToolRegistry;
  /** Opens the index over the registry's tools as they are at that moment. */
  open: () => Promise<CatalogIndex>;
  /** Stores a new tool's embedded texts for the other replicas before its change is announced. */
  embedAhead: (texts: string[]) => Promise<void>;
  logger: Logger;
}

export class LiveIndex {
  readonly #deps: LiveIndexDeps;
  #opening: Promise<CatalogIndex> | undefined;
  #opened: CatalogIndex | undefined;
  #updates: Promise<void> = Promise.resolve();

  constructor(deps: LiveIndexDeps) {
    this.#deps = deps;
    deps.registry.on("change", (change) => {
      // An index not opened yet reads the registry as it is when it opens: nothing to replay.
      if (!this.#opening) return;
      this.#updates = this.#updates
        .then(async () => {
          const { router } = await this.open();
          if (change.type === "put") await router.upsert(change.tool);
          else await router.remove(change.tool.name);
        })
        .catch((error: Error) =>
          deps.logger.error({ err: error, tool: change.tool.name }, "index update failed"),
        );
    });
  }

  /** The index, opening it on the first call. */
  open(): Promise<CatalogIndex> {
    this.#opening ??= this.#deps.open().then((opened) => {
      this.#opened = opened;
      return opened;
    });
    return this.#opening;
  }

  async router(): Promise<Router> {
    return (await this.open()).router;
  }

  /** Resolves once every catalog change so far is in the index. */
  settled(): Promise<void> {
    return this.#updates;
  }

  /** Before a tool is stored: its texts embedded for the other replicas, once an index is in use. */
  async embedAhead(tool: Tool): Promise<void> {
    if (this.#opening) await this.#deps.embedAhead(Router.textsOf(tool));
  }

  async ready(): Promise<ReadyReport> {
    const { router, seeded, embedder } = await this.open();
    return {
      tools: this.#deps.registry.list().length,
      embedder: embedderHealth(embedder),
      index: { ...router.report, seeded, dense: router.dense.state },
    };
  }

  /** The dense index's state once the index is open: "filling" while it fills in the background. */
  dense(): DenseState | undefined {
    return this.#opened?.router.dense;
  }

  /** The embedder in use, once the index is open. */
  embedder(): EmbedderHealth | undefined {
    return this.#opened ? embedderHealth(this.#opened.embedder) : undefined;
  }

  async close(): Promise<void> {
    await this.#updates;
    // An index that failed to open has nothing to persist; its error was already reported to its caller.
    const opened = await this.#opening?.catch(() => undefined);
    await opened?.close();
  }
}

function embedderHealth(embedder: Embedder): EmbedderHealth {
  const { id, runtime, fallback } = embedder;
  return { id, runtime, ...(fallback ? { fallback } : {}) };
}
