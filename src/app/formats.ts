// Tool definitions in the shape each agent framework expects. MCP is the catalog's own shape; OpenAI's
// strict function calling and Anthropic's tool use need a sanitised name, and OpenAI strict mode needs its
// own schema (strict-schema.ts).
import type { Tool } from "../catalog/index.ts";
import type { DefinitionFormat } from "./requests.ts";
import { strictSchema } from "./strict-schema.ts";

export { fromStrictArguments, strictSchema } from "./strict-schema.ts";

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A name OpenAI and Anthropic accept: other characters become "_", cut to 64. */
export function providerToolName(name: string): string {
  if (PROVIDER_NAME.test(name)) return name;
  return name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) || "_";
}

type JsonSchema = Record<string, unknown>;

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
