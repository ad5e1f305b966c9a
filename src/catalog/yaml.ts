// Every YAML document Switchboard reads (catalog files, OpenAPI documents, CLI inputs) is parsed here, with
// limits: a few hundred bytes of anchors and aliases can expand to billions of nodes (an alias bomb), and a
// parser without limits, or whatever walks its output, then runs for minutes on one event-loop turn.
import { parse, YAMLParseError } from "yaml";

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
