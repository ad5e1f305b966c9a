// Tool definitions in the shape each agent framework expects. MCP is the catalog's own shape; OpenAI's
// strict function calling and Anthropic's tool use need a sanitised name, and OpenAI strict mode needs a
// schema where every property is required, optional ones are nullable and no object allows extra keys.
import type { Tool } from "../catalog/index.ts";
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

export function formatDefinition(tool: Tool, format: DefinitionFormat): Record<string, unknown> {
  const description = tool.description;
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
