// Every YAML document Switchboard reads (catalog files, OpenAPI documents, CLI inputs) is parsed here, with
// limits: a few hundred bytes of anchors and aliases can expand to billions of nodes (an alias bomb), and a
// parser without limits, or whatever walks its output, then runs for minutes on one event-loop turn.
//
// Two parsers: js-yaml reads a catalog about five times faster than `yaml` and loads in a fraction of its
// time, which was most of `catalog validate`. It shares an anchored value between its aliases instead of
// copying it, so its result is measured the way `yaml` bounds aliases; a document over the bound, or one
// js-yaml refuses, is read by `yaml`, whose alias bound and error codes are the ones reported.
import { createRequire } from "node:module";
import { CORE_SCHEMA, load } from "js-yaml";

const require = createRequire(import.meta.url);

/**
 * Alias nodes the document may resolve, each weighted by the aliases inside what it points to: the `yaml`
 * package's own measure of expansion. Hand-written documents use a handful; a bomb needs thousands.
 */
export const MAX_YAML_ALIASES = 100;
/** The largest document read, in characters: nodes are bounded by size once aliases are. */
export const MAX_YAML_CHARS = 16 * 1024 * 1024;

/** A document that is not YAML, or one the limits refuse; the message names the place when there is one. */
export class YamlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "YamlError";
  }
}

export function parseYaml(text: string): unknown {
  if (text.length > MAX_YAML_CHARS) {
    throw new YamlError(`the document has ${text.length} characters, more than the ${MAX_YAML_CHARS} read`);
  }
  try {
    // YAML 1.2's core schema, as `yaml` reads it: no timestamps, no merge keys.
    const value = load(text, { schema: CORE_SCHEMA });
    if (aliasWeight(value) <= MAX_YAML_ALIASES) return value;
  } catch {}
  return parseBounded(text);
}

/**
 * `yaml`'s measure on js-yaml's result: a collection met again is an alias, weighing one plus the aliases
 * inside it. Linear in the parsed size (aliased scalars are copies, harmless, and not counted). The walk
 * stops once past the bound.
 */
function aliasWeight(root: unknown): number {
  const inside = new Map<object, number>();
  let total = 0;
  const visit = (node: unknown): number => {
    if (node === null || typeof node !== "object") return 0;
    const known = inside.get(node);
    if (known !== undefined) {
      total += 1 + known;
      return 1 + known;
    }
    inside.set(node, 0);
    let weight = 0;
    for (const child of Object.values(node)) {
      weight += visit(child);
      if (total > MAX_YAML_ALIASES) break;
    }
    inside.set(node, weight);
    return weight;
  };
  visit(root);
  return total;
}

function parseBounded(text: string): unknown {
  const { parse, YAMLParseError } = require("yaml") as typeof import("yaml");
  try {
    return parse(text, { maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      throw new YamlError(
        `YAML syntax error${at ? ` at line ${at.line}, column ${at.col}` : ""}: ${error.code}`,
      );
    }
    // The yaml package reports an over-used or unresolved alias as a ReferenceError.
    if (error instanceof ReferenceError) {
      throw new YamlError(
        /excessive alias/i.test(error.message)
          ? `YAML aliases expand past the limit of ${MAX_YAML_ALIASES} (an alias bomb?); write the values out instead`
          : `YAML alias error: ${error.message}`,
      );
    }
    throw error;
  }
}
