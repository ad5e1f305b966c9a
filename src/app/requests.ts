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

/** OpenAI sends arguments as JSON text; text that does not parse is left for validation to name. */
function parsedArguments(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A call as a model sent it back, in the convention of the definitions it was given: OpenAI Chat
 * Completions ({ id, type: "function", function: { name, arguments: "<JSON>" } }), OpenAI Responses
 * ({ type: "function_call", call_id, name, arguments: "<JSON>" }) or Anthropic ({ type: "tool_use", id,
 * name, input }), rewritten to Switchboard's own { id, name, arguments } before validation, so every
 * problem is named at the same path whatever the convention.
 */
export function normaliseToolCall(call: unknown): unknown {
  if (!call || typeof call !== "object") return call;
  const c = call as Record<string, unknown>;
  const fn = c.function as Record<string, unknown> | undefined;
  if (c.type === "function" && fn && typeof fn === "object")
    return { id: c.id, name: fn.name, arguments: parsedArguments(fn.arguments) };
  if (c.type === "function_call")
    return { id: c.call_id, name: c.name, arguments: parsedArguments(c.arguments) };
  if (c.type === "tool_use") return { id: c.id, name: c.name, arguments: c.input };
  return call;
}

export const modelToolCallSchema = z.preprocess(normaliseToolCall, toolCallSchema).meta({
  description:
    "A tool call as { id, name, arguments }, or as an OpenAI Chat Completions, OpenAI Responses or Anthropic model sent it",
});

export const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, "must be 1-128 letters, digits, '.', '_', ':' or '-'")
  .meta({
    description:
      "The caller's session: its tools read the context earlier calls of this session set (for this API key only)",
  });

export const executeRequestSchema = z.strictObject({
  calls: z.array(modelToolCallSchema).min(1, "needs at least one call").max(64),
  sessionId: sessionIdSchema.optional(),
});

/** The ceiling of the operator's SWITCHBOARD_MAX_REQUEST_CHARS: the schema's bound, not the service's. */
export const MAX_REQUEST_CHARS_CEILING = 1_000_000;

export const routeAndExecuteRequestSchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(MAX_REQUEST_CHARS_CEILING)
    .meta({
      description:
        "What the agent wants, in its own words: a whole agent message may be sent, up to the service's limit " +
        "(32,000 characters unless the operator set SWITCHBOARD_MAX_REQUEST_CHARS). The tool is chosen on a " +
        "bounded window (the first 1,000 characters of the instruction); values are read from all of it.",
    }),
  arguments: z.record(z.string(), z.unknown()).optional(),
  threshold: routeRequestSchema.shape.threshold,
  categories: routeRequestSchema.shape.categories,
  sessionId: sessionIdSchema.optional(),
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
