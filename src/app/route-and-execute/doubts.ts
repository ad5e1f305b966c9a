// What keeps a filled call from running: required values missing, values from the request that the schema
// refuses, values read but not surely (under the confidence bar), and, for a tool that writes, values the
// request did not state. Each becomes a field of a needs_input answer.
import { type Tool, validateAgainstSchema } from "../../catalog/index.ts";
import type { FilledValue, FillResult, MissingField } from "../../intent/index.ts";

/** A tool's input properties, by name. */
export function properties(tool: Tool): Record<string, unknown> {
  return ((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {}) as Record<
    string,
    unknown
  >;
}

/** Values the agent supplied, and values from the request whose validation failed, split apart. */
export function failedQueryValues(tool: Tool, fill: FillResult): MissingField[] {
  const issues = validateAgainstSchema(tool.inputSchema, fill.arguments);
  const fromQuery = new Set(fill.filled.filter((v) => v.source === "query").map((v) => v.field));
  const props = properties(tool) as Record<string, Record<string, unknown>>;
  return issues.flatMap((issue) => {
    const field = issue.path.split(".")[0] ?? "";
    return fromQuery.has(field)
      ? [{ field, schema: props[field] ?? {}, reason: `"${String(fill.arguments[field])}" ${issue.message}` }]
      : [];
  });
}

/**
 * A call the filler is not sure of (its confidence is under the bar) is proposed, not run: its least sure
 * values are asked about, and the answer carries every value read as `suggested`, each with its span.
 */
function unsureValues(tool: Tool, fill: FillResult): MissingField[] {
  if (fill.confidence >= fill.bar) return [];
  const unsure = fill.suggested.filter(
    (v: FilledValue) =>
      v.source === "query" && (v.evidence === undefined || v.evidence === "order" || v.evidence === "name"),
  );
  const asked = unsure.length > 0 ? unsure : fill.suggested;
  const unused =
    fill.unused.length > 0
      ? `; the request also states ${fill.unused.map((u) => `"${u.text}"`).join(", ")}, which this call does not use`
      : "";
  return asked.map((v) => ({
    field: v.field,
    schema: (properties(tool)[v.field] ?? {}) as Record<string, unknown>,
    reason: `read as ${JSON.stringify(v.value)}${v.span ? ` from "${v.span.text}"` : ""}, but not surely: confirm it${unused}`,
  }));
}

/**
 * Whether a tool changes something: its annotations say it writes or destroys. A tool without annotations
 * keeps the confidence bar alone: most imported function definitions carry none, and asking for every
 * default of each would make them unusable.
 */
function writes(tool: Tool): boolean {
  return tool.annotations?.readOnlyHint === false || tool.annotations?.destructiveHint === true;
}

/**
 * For a tool that writes, the values the request did not state: a default the call would fall back on, a
 * value placed by its order alone, or one the LLM proposed that appears nowhere in the request. Each is
 * asked about: a change made on a guess is a side effect nobody asked for.
 */
function unstatedValues(tool: Tool, fill: FillResult): MissingField[] {
  const props = properties(tool) as Record<string, Record<string, unknown>>;
  const byField = new Map(fill.filled.map((v) => [v.field, v]));
  return Object.entries(props).flatMap(([field, schema]) => {
    const value = byField.get(field);
    if (!value) {
      return "default" in schema
        ? [
            {
              field,
              schema,
              reason: `not stated: a tool that writes does not run on the default ${JSON.stringify(schema.default)}`,
            },
          ]
        : [];
    }
    const guessed =
      (value.source === "query" && (value.evidence === undefined || value.evidence === "order")) ||
      (value.source === "llm" && value.span === undefined);
    return guessed
      ? [
          {
            field,
            schema,
            reason: `read as ${JSON.stringify(value.value)}, but the request does not state it`,
          },
        ]
      : [];
  });
}

/**
 * What keeps a call from running: required values missing, values from the request the schema refuses,
 * values read but not surely, and for a tool that writes, values the request did not state; each field once.
 */
export function doubtsOf(tool: Tool, fill: FillResult, supplied: Record<string, unknown>): MissingField[] {
  const failed = fill.missing.length === 0 ? failedQueryValues(tool, fill) : [];
  const unsure = fill.missing.length === 0 && failed.length === 0 ? unsureValues(tool, fill) : [];
  const unstated = writes(tool) ? unstatedValues(tool, fill).filter((m) => !(m.field in supplied)) : [];
  const seen = new Set<string>();
  return [...fill.missing, ...failed, ...unsure, ...unstated].filter((m) => {
    if (seen.has(m.field)) return false;
    seen.add(m.field);
    return true;
  });
}
