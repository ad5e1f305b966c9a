// "Context saved": how many prompt tokens the returned definitions cost against putting the whole catalog
// in front of the model, counted with the dispatcher's token estimator (the same one its result budgets
// use): the ratio, not the exact count, is what matters.
import type { Tool } from "../catalog/index.ts";
import { formatDefinition } from "./formats.ts";
import type { DefinitionFormat } from "./requests.ts";

export interface ContextSaved {
  returnedTokens: number;
  catalogTokens: number;
  savedTokens: number;
  savedRatio: number;
}

/**
 * Token counts per tool definition and format, and of the whole catalog, computed on first use. Tool
 * objects are replaced on every put, so a WeakMap keyed by them never serves a stale count; the catalog
 * total is forgotten on any change.
 */
export class CatalogTokens {
  readonly #list: () => Tool[];
  readonly #countText: (text: string) => number;
  readonly #perTool = new WeakMap<Tool, Map<DefinitionFormat, number>>();
  readonly #catalog = new Map<DefinitionFormat, number>();

  constructor(list: () => Tool[], countText: (text: string) => number) {
    this.#list = list;
    this.#countText = countText;
  }

  of(tool: Tool, format: DefinitionFormat): number {
    let counts = this.#perTool.get(tool);
    if (!counts) {
      counts = new Map();
      this.#perTool.set(tool, counts);
    }
    let count = counts.get(format);
    if (count === undefined) {
      count = this.#countText(JSON.stringify(formatDefinition(tool, format)));
      counts.set(format, count);
    }
    return count;
  }

  invalidate(): void {
    this.#catalog.clear();
  }

  saved(returnedTokens: number, format: DefinitionFormat): ContextSaved {
    let catalogTokens = this.#catalog.get(format);
    if (catalogTokens === undefined) {
      catalogTokens = 0;
      for (const tool of this.#list()) catalogTokens += this.of(tool, format);
      this.#catalog.set(format, catalogTokens);
    }
    const savedTokens = Math.max(0, catalogTokens - returnedTokens);
    return {
      returnedTokens,
      catalogTokens,
      savedTokens,
      savedRatio: catalogTokens === 0 ? 0 : Number((savedTokens / catalogTokens).toFixed(4)),
    };
  }
}
