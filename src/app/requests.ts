// The inputs of every Switchboard operation, as zod schemas shared by the HTTP API (body validation and
// the OpenAPI document), the MCP server (tool input schemas) and the CLI.
import { z } from "zod";
import { toolSchema } from "../catalog/index.ts";
import { synthesisRequestSchema } from "../synth/index.ts";

export const definitionFormatSchema = z.enum(["mcp", "openai", "openai-responses", "anthropic"]).meta({
  description:
    "Shape of the returned tool definitions: MCP, OpenAI Chat Completions (strict), OpenAI Responses (flat, strict) or Anthropic",
});

export const routeRequestSchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(4000)
    .meta({ description: "What the agent wants" }),
  topK: z.number().int().min(1).max(50).default(5),
  threshold: z.number().min(0).max(1).optional().meta({ description: "Overrides the calibrated threshold" }),
  categories: z.array(z.string().min(1)).optional().meta({ description: "Restrict to these departments" }),
  format: definitionFormatSchema.default("mcp"),
});

export const toolCallSchema = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(128),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

/** OpenAI sends arguments as a JSON text; it must hold an object. */
const jsonArguments = z.string().transform((text, ctx) => {
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  ctx.addIssue({ code: "custom", message: "must be a JSON object as text" });
  return z.NEVER;
});

/** A call as a model sent it back: MCP/Switchboard, OpenAI Chat Completions, OpenAI Responses or Anthropic. */
export const modelToolCallSchema = z.union([
  toolCallSchema,
  z
    .looseObject({
      id: toolCallSchema.shape.id,
      type: z.literal("function"),
      function: z.looseObject({ name: toolCallSchema.shape.name, arguments: jsonArguments }),
    })
    .transform((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
  z
    .looseObject({
      type: z.literal("function_call"),
      call_id: toolCallSchema.shape.id,
      name: toolCallSchema.shape.name,
      arguments: jsonArguments,
    })
    .transform((c) => ({ id: c.call_id, name: c.name, arguments: c.arguments })),
  z
    .looseObject({
      type: z.literal("tool_use"),
      id: toolCallSchema.shape.id,
      name: toolCallSchema.shape.name,
      input: z.record(z.string(), z.unknown()),
    })
    .transform((c) => ({ id: c.id, name: c.name, arguments: c.input })),
]);

export const executeRequestSchema = z.strictObject({
  calls: z.array(modelToolCallSchema).min(1, "needs at least one call").max(64),
});

export const routeAndExecuteRequestSchema = z.strictObject({
  query: routeRequestSchema.shape.query,
  arguments: z.record(z.string(), z.unknown()).optional(),
  threshold: routeRequestSchema.shape.threshold,
  categories: routeRequestSchema.shape.categories,
});

/** The synthesizer's own request, except that `code` may be left out when an LLM is configured to write it. */
export const synthesizeRequestSchema = synthesisRequestSchema.partial({ code: true });

/** Pairs per feedback request: they are embedded in one batch, so the bound is the request's cost. */
export const MAX_FEEDBACK_PAIRS = 100;

export const feedbackRequestSchema = z.strictObject({
  pairs: z
    .array(z.strictObject({ query: z.string().trim().min(1).max(4000), tool: z.string().min(1).max(128) }))
    .min(1)
    .max(
      MAX_FEEDBACK_PAIRS,
      `at most ${MAX_FEEDBACK_PAIRS} pairs per request; send more in several requests`,
    ),
});

export { toolSchema };

export type DefinitionFormat = z.infer<typeof definitionFormatSchema>;
export type RouteRequest = z.input<typeof routeRequestSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type RouteAndExecuteRequest = z.infer<typeof routeAndExecuteRequestSchema>;
export type SynthesizeRequest = z.infer<typeof synthesizeRequestSchema>;
export type FeedbackPair = z.infer<typeof feedbackRequestSchema>["pairs"][number];
