// Changes to the catalog through the service: tools put through the API, promoted or deleted, and the
// registry synthesis writes through. Each change is stored first (a database that is away is a 503
// store_unavailable), then waits until the index has it, so a tool answered as stored is routable.
import {
  type SynthesisProvenance,
  type Tool,
  type ToolRegistry,
  ToolValidationError,
  unknownToolMessage,
} from "../catalog/index.ts";
import type { Logger } from "../config/index.ts";
import type { SynthesisRegistry } from "../synth/index.ts";
import type { LiveIndex } from "./live-index.ts";
import type { ToolListing } from "./responses.ts";
import { storeProblem } from "./scale-out.ts";
import type { Viewer } from "./tool-access.ts";
import { listing, type ToolDirectory } from "./tool-directory.ts";
import type { ToolRuntime } from "./tool-runtime.ts";
import { AppError } from "./types.ts";

export interface CatalogWritesDeps {
  registry: ToolRegistry;
  directory: ToolDirectory;
  index: LiveIndex;
  requireBrowser: ToolRuntime["requireBrowser"];
  logger: Logger;
}

export class CatalogWrites {
  readonly #deps: CatalogWritesDeps;

  constructor(deps: CatalogWritesDeps) {
    this.#deps = deps;
  }

  async put(tool: Tool): Promise<Tool> {
    const { registry, index, requireBrowser } = this.#deps;
    if (tool.binding?.type === "sandbox") await requireBrowser(tool.binding.capabilities);
    try {
      await index.embedAhead(tool);
      const { tool: stored } = await registry.put(tool, "api");
      await index.settled();
      return stored;
    } catch (error) {
      if (error instanceof ToolValidationError) throw new AppError("invalid", error.message, error.issues);
      throw storeProblem(error);
    }
  }

  /** Publishes a pending synthesized tool: not_found for an unknown name, conflict if already published. */
  async promote(name: string, by: Viewer | undefined): Promise<ToolListing> {
    const promoted = await this.#deps.registry
      .promote(name)
      .catch((error) => Promise.reject(storeProblem(error)));
    if (promoted === "unknown") throw new AppError("not_found", `unknown tool "${name}"`);
    if (promoted === "published")
      throw new AppError("conflict", `tool "${name}" is already published: only a pending tool is promoted`);
    this.#deps.logger.info(
      { tool: name, owner: promoted.synthesis?.owner, by: by?.id ?? "local" },
      "pending synthesized tool promoted: routed for every key from now on",
    );
    return listing(promoted, by);
  }

  async delete(name: string, by: Viewer | undefined): Promise<void> {
    const { registry, directory, index, logger } = this.#deps;
    const entry = registry.entry(name);
    if (!(await registry.delete(name).catch((error) => Promise.reject(storeProblem(error)))))
      throw new AppError("not_found", unknownToolMessage(name, directory.names(by)));
    logger.info(
      { tool: name, origin: entry?.origin, status: entry?.synthesis?.status, by: by?.id ?? "local" },
      "tool deleted",
    );
    await index.settled();
  }

  /**
   * The registry as synthesis sees it: what it registers carries `provenance` (pending for an agent key).
   * Stored embeddings first, as put() does, so other replicas find the new tool's vectors.
   */
  forSynthesis(provenance: SynthesisProvenance): SynthesisRegistry {
    const { registry, index } = this.#deps;
    return {
      admit: (tool: Tool) => registry.admit(tool),
      async put(tool: Tool, origin: "synthesized") {
        await index.embedAhead(tool);
        return registry.put(tool, origin, provenance);
      },
    };
  }
}
