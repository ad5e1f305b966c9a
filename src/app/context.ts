// "Context saved": how many prompt tokens the returned definitions cost against putting the whole catalog
// in front of the model. gpt-tokenizer's o200k encoding stands in for every model's tokenizer: the ratio,
// not the exact count, is what matters.
import { countTokens } from "gpt-tokenizer";
import type { Tool } from "../catalog/index.ts";
import { formatDefinition } from "./formats.ts";
import type { DefinitionFormat } from "./requests.ts";

export interface ContextSaved {
  returnedTokens: number;
  catalogTokens: number;
  savedTokens: number;
  savedRatio: number;
}

export function definitionTokens(definition: unknown): number {
  return countTokens(JSON.stringify(definition));
}

/** Token counts of the whole catalog per format, computed on first use and forgotten on any change. */
export class CatalogTokens {
  readonly #list: () => Tool[];
  readonly #cache = new Map<DefinitionFormat, number>();

  constructor(list: () => Tool[]) {
    this.#list = list;
  }

  invalidate(): void {
    this.#cache.clear();
  }

  total(format: DefinitionFormat): number {
    let total = this.#cache.get(format);
    if (total === undefined) {
      total = 0;
      for (const tool of this.#list()) total += definitionTokens(formatDefinition(tool, format));
      this.#cache.set(format, total);
    }
    return total;
  }

  saved(returnedTokens: number, format: DefinitionFormat): ContextSaved {
    const catalogTokens = this.total(format);
    const savedTokens = Math.max(0, catalogTokens - returnedTokens);
    return {
      returnedTokens,
      catalogTokens,
      savedTokens,
      savedRatio: catalogTokens === 0 ? 0 : Number((savedTokens / catalogTokens).toFixed(4)),
    };
  }
}
