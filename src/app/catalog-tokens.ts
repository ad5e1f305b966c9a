// "Context saved": how many prompt tokens the returned definitions cost against putting the whole catalog
// in front of the model, counted with the dispatcher's token estimator (the same one its result budgets
// use): the ratio, not the exact count, is what matters.
import type { Tool } from "../catalog/index.ts";
import { formatDefinition } from "./formats.ts";
import type { DefinitionFormat } from "./requests.ts";
import type { RouteResponse } from "./types.ts";

export interface ContextSaved {
  returnedTokens: number;
  catalogTokens: number;
  savedTokens: number;
  savedRatio: number;
}

/** A tool's definition in one format, with its JSON text and its token count. */
interface Formatted {
  definition: Record<string, unknown>;
  json: string;
  tokens: number;
}

/**
 * The JSON text of definitions this cache handed out, for `serializeRouteResponse`: a route answer holds a
 * few definitions of a few kilobytes each, the same ones again and again, so they are written once.
 */
const definitionJson = new WeakMap<object, string>();

/**
 * Definitions per tool and format with their JSON and token counts, and the whole catalog's count,
 * computed on first use. Tool objects are replaced on every put, so a WeakMap keyed by them never serves a
 * stale definition; the catalog total is forgotten on any change. A definition is shared by every answer
 * that returns it: callers must not change it.
 */
export class CatalogTokens {
  readonly #list: () => Tool[];
  readonly #countText: (text: string) => number;
  readonly #perTool = new WeakMap<Tool, Map<DefinitionFormat, Formatted>>();
  readonly #catalog = new Map<DefinitionFormat, number>();

  constructor(list: () => Tool[], countText: (text: string) => number) {
    this.#list = list;
    this.#countText = countText;
  }

  /** The tool's definition in `format` (shared: read it, do not change it). */
  formatted(tool: Tool, format: DefinitionFormat): Formatted {
    let formats = this.#perTool.get(tool);
    if (!formats) {
      formats = new Map();
      this.#perTool.set(tool, formats);
    }
    let entry = formats.get(format);
    if (entry === undefined) {
      const definition = formatDefinition(tool, format);
      const json = JSON.stringify(definition);
      entry = { definition, json, tokens: this.#countText(json) };
      definitionJson.set(definition, json);
      formats.set(format, entry);
    }
    return entry;
  }

  of(tool: Tool, format: DefinitionFormat): number {
    return this.formatted(tool, format).tokens;
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

/**
 * A route answer as JSON, with each definition's JSON text from the cache that made it (JSON.stringify of
 * the whole answer re-serialises kilobytes of schemas per route). The same JSON value as JSON.stringify,
 * with `tools` written last.
 */
export function serializeRouteResponse(response: RouteResponse): string {
  const { tools, ...rest } = response;
  let out = JSON.stringify(rest);
  out = `${out.slice(0, -1)}${out.length > 2 ? "," : ""}"tools":[`;
  for (let i = 0; i < tools.length; i++) {
    const { definition, ...hit } = tools[i] as RouteResponse["tools"][number];
    const head = JSON.stringify(hit);
    const body = definitionJson.get(definition) ?? JSON.stringify(definition);
    out += `${i > 0 ? "," : ""}${head.slice(0, -1)}${head.length > 2 ? "," : ""}"definition":${body}}`;
  }
  return `${out}]}`;
}
