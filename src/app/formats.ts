// Tool definitions in the shape each agent framework expects. MCP is the catalog's own shape; OpenAI's
// strict function calling and Anthropic's tool use need a sanitised name, and OpenAI strict mode needs a
// schema where every property is required, optional ones are nullable and no object allows extra keys.
import { type Tool, validateAgainstSchema } from "../catalog/index.ts";
import type { DefinitionFormat } from "./requests.ts";

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A name OpenAI and Anthropic accept: other characters become "_", cut to 64. */
export function providerToolName(name: string): string {
  if (PROVIDER_NAME.test(name)) return name;
  return name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) || "_";
}

type JsonSchema = Record<string, unknown>;

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === "string") {
    const next: JsonSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum)) next.enum = [...schema.enum, null];
    return next;
  }
  if (Array.isArray(type)) return type.includes("null") ? schema : { ...schema, type: [...type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/** OpenAI strict mode: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties && typeof schema.properties === "object") {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      const inner = strictSchema(value);
      properties[key] = required.has(key) ? inner : nullable(inner);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
  }
  if (schema.type === "object" || schema.properties) {
    out.additionalProperties = false;
    if (!out.properties) {
      out.properties = {};
      out.required = [];
    }
  }
  if (schema.items && typeof schema.items === "object" && !Array.isArray(schema.items))
    out.items = strictSchema(schema.items as JsonSchema);
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as JsonSchema[]).map(strictSchema);
  }
  // Keywords strict mode rejects; the description keeps the intent visible to the model.
  delete out.$schema;
  delete out.default;
  return out;
}

/**
 * Arguments as the original schema means them: strict mode made every optional field required and
 * nullable, so a model sends `null` for "not given". Such a `null` is dropped when the original schema made
 * the field optional and does not itself accept null; a null for a required field is left for validation.
 */
export function withoutStrictNulls(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    return items && typeof items === "object" && !Array.isArray(items)
      ? value.map((v) => withoutStrictNulls(items as JsonSchema, v))
      : value;
  }
  if (!value || typeof value !== "object" || !schema.properties || typeof schema.properties !== "object")
    return value;
  const properties = schema.properties as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const property = properties[key];
    if (field === null && property && !required.has(key) && validateAgainstSchema(property, null).length > 0)
      continue;
    out[key] = property ? withoutStrictNulls(property, field) : field;
  }
  return out;
}

export function formatDefinition(tool: Tool, format: DefinitionFormat): Record<string, unknown> {
  const description = tool.description;
  if (format === "openai-responses") {
    // The Responses API's function tools are flat: no "function" wrapper.
    return {
      type: "function",
      name: providerToolName(tool.name),
      description,
      parameters: strictSchema(tool.inputSchema as JsonSchema),
      strict: true,
    };
  }
  if (format === "openai") {
    return {
      type: "function",
      function: {
        name: providerToolName(tool.name),
        description,
        parameters: strictSchema(tool.inputSchema as JsonSchema),
        strict: true,
      },
    };
  }
  if (format === "anthropic") {
    return { name: providerToolName(tool.name), description, input_schema: tool.inputSchema };
  }
  const mcp: Record<string, unknown> = { name: tool.name, description, inputSchema: tool.inputSchema };
  if (tool.title) mcp.title = tool.title;
  if (tool.outputSchema) mcp.outputSchema = tool.outputSchema;
  if (tool.annotations) mcp.annotations = tool.annotations;
  return mcp;
}
