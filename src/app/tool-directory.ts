// The registry as one caller sees it (tool-access.ts): another agent key's pending tool is as unknown as a
// missing one, by name, in listings and in routing.
import type { RegistryEntry, Tool, ToolRegistry } from "../catalog/index.ts";
import { providerToolName } from "./formats.ts";
import type { ToolListing } from "./responses.ts";
import { canUse, provenanceView, routesTo, type Viewer } from "./tool-access.ts";

export class ToolDirectory {
  readonly #registry: ToolRegistry;

  constructor(registry: ToolRegistry) {
    this.#registry = registry;
  }

  /** The entry of a tool `viewer` may use, else undefined. */
  usable(name: string, viewer: Viewer | undefined): RegistryEntry | undefined {
    const entry = this.#registry.entry(name);
    return entry && canUse(entry, viewer) ? entry : undefined;
  }

  get(name: string, viewer: Viewer | undefined): Tool | undefined {
    return this.usable(name, viewer)?.tool;
  }

  /** The catalog name, or the sanitised alias an OpenAI/Anthropic agent saw in a route answer. */
  resolveName(name: string, viewer: Viewer | undefined): string | undefined {
    if (this.usable(name, viewer)) return name;
    return this.#registry
      .entries()
      .find((entry) => providerToolName(entry.tool.name) === name && canUse(entry, viewer))?.tool.name;
  }

  /** What routing must not offer `viewer`: other keys' pending tools (none, usually: no filter at all). */
  hiddenFrom(viewer: Viewer | undefined): ((name: string) => boolean) | undefined {
    const hidden = this.#registry.pending().filter((entry) => !routesTo(entry, viewer));
    if (hidden.length === 0) return undefined;
    const names = new Set(hidden.map((entry) => entry.tool.name));
    return (name) => names.has(name);
  }

  #entries(viewer: Viewer | undefined): RegistryEntry[] {
    return this.#registry.entries().filter((entry) => canUse(entry, viewer));
  }

  names(viewer: Viewer | undefined): string[] {
    return this.#entries(viewer).map((entry) => entry.tool.name);
  }

  tools(viewer: Viewer | undefined): Tool[] {
    return this.#entries(viewer).map((entry) => entry.tool);
  }

  listings(viewer: Viewer | undefined): ToolListing[] {
    return this.#entries(viewer).map((entry) => listing(entry, viewer));
  }
}

/** A tool as listed to `viewer`, with where it came from (ToolListing in responses.ts). */
export function listing(entry: RegistryEntry, viewer: Viewer | undefined): ToolListing {
  const { tool } = entry;
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    ...(tool.category !== undefined ? { category: tool.category } : {}),
    ...(tool.version !== undefined ? { version: tool.version } : {}),
    origin: entry.origin,
    ...(entry.updatedAt !== undefined ? { updatedAt: entry.updatedAt } : {}),
    ...(entry.synthesis ? { synthesis: provenanceView(entry.synthesis, entry, viewer) } : {}),
  };
}
