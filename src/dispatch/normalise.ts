// The canonical normaliser every provider's answer passes before the tool's outputSchema: providers answer
// in different shapes for the same tool (an MCP CallToolResult, JSON text, a plain value), and the output
// an agent sees must not depend on which provider answered.
import { MappingError, type SchemaCheck } from "../catalog/index.ts";
import { DispatchError, SchemaError } from "./errors.ts";

interface McpResult {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

const MCP_KEYS = new Set(["content", "structuredContent", "isError", "_meta"]);

function isMcpResult(value: unknown): value is McpResult {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every((c) => c && typeof c === "object" && typeof c.type === "string") &&
    Object.keys(value).every((k) => MCP_KEYS.has(k))
  );
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * `outputCheck` is the tool's compiled outputSchema, undefined when it has none; `map` is the provider's
 * declared mapping to that canonical shape, if it has one. A value the mapping cannot convert is an output
 * schema failure of this provider, like an answer that does not match.
 */
export function normaliseOutput(
  raw: unknown,
  outputCheck: SchemaCheck | undefined,
  map?: (output: unknown) => unknown,
): unknown {
  let output = raw;
  if (isMcpResult(raw)) {
    const text = raw.content
      .filter((c) => c.type === "text" && typeof c.text === "string")
      .map((c) => c.text)
      .join("\n");
    // An MCP tool reports its own failure in-band; its text says why (and is classified like any error).
    if (raw.isError) throw new DispatchError("unknown", text || "the tool reported an error");
    output = raw.structuredContent ?? (outputCheck || map ? parseJsonText(text) : text);
  } else if (typeof raw === "string" && (outputCheck || map)) output = parseJsonText(raw);
  if (map) {
    try {
      output = map(output);
    } catch (error) {
      if (error instanceof MappingError) throw new SchemaError("output", error.issues);
      throw error;
    }
  }
  if (outputCheck) {
    const issues = outputCheck(output);
    if (issues) throw new SchemaError("output", issues);
  }
  return output;
}
