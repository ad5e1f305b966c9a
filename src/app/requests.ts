// The inputs of every Switchboard operation, as zod schemas shared by the HTTP API (body validation and
// the OpenAPI document), the MCP server (tool input schemas) and the CLI.
import { z } from "zod";
import { toolSchema } from "../catalog/index.ts";

export const definitionFormatSchema = z
  .enum(["mcp", "openai", "anthropic"])
  .meta({ description: "Shape of the returned tool definitions" });

export const routeRequestSchema = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(4000)
      .meta({ description: "What the agent wants" }),
    topK: z.number().int().min(1).max(50).default(5),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .meta({ description: "Overrides the calibrated threshold" }),
    categories: z.array(z.string().min(1)).optional().meta({ description: "Restrict to these departments" }),
    format: definitionFormatSchema.default("mcp"),
  })
  .meta({ id: "RouteRequest" });

export const toolCallSchema = z
  .strictObject({
    id: z.string().min(1).max(200),
    name: z.string().min(1).max(128),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: "ToolCall" });

export const executeRequestSchema = z
  .strictObject({ calls: z.array(toolCallSchema).min(1, "needs at least one call").max(64) })
  .meta({ id: "ExecuteRequest" });

export const routeAndExecuteRequestSchema = z
  .strictObject({
    query: routeRequestSchema.shape.query,
    arguments: z.record(z.string(), z.unknown()).optional(),
    threshold: routeRequestSchema.shape.threshold,
    categories: routeRequestSchema.shape.categories,
  })
  .meta({ id: "RouteAndExecuteRequest" });

export const synthesizeRequestSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "must be a JavaScript identifier of 1-64 characters"),
    description: z.string().trim().min(1).max(4000),
    inputSchema: z.looseObject({ type: z.literal("object") }),
    code: z.string().min(1).max(100_000).optional().meta({ description: "Source; omit to ask the LLM" }),
    examples: z
      .array(z.strictObject({ arguments: z.record(z.string(), z.unknown()), expect: z.unknown().optional() }))
      .optional()
      .meta({ description: "Test calls the synthesized tool must pass before it is registered" }),
    category: z.string().min(1).optional(),
  })
  .meta({ id: "SynthesizeRequest" });

export const feedbackRequestSchema = z
  .strictObject({
    pairs: z
      .array(z.strictObject({ query: z.string().trim().min(1).max(4000), tool: z.string().min(1).max(128) }))
      .min(1)
      .max(1000),
  })
  .meta({ id: "FeedbackRequest" });

export { toolSchema };

export type DefinitionFormat = z.infer<typeof definitionFormatSchema>;
export type RouteRequest = z.input<typeof routeRequestSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type RouteAndExecuteRequest = z.infer<typeof routeAndExecuteRequestSchema>;
export type SynthesizeRequest = z.infer<typeof synthesizeRequestSchema>;
export type FeedbackPair = z.infer<typeof feedbackRequestSchema>["pairs"][number];
