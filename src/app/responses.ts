// The answers of every Switchboard operation as zod schemas, beside the request schemas: the HTTP API's
// OpenAPI document is generated from them, so generated clients get typed answers. The TypeScript types in
// types.ts are checked against them at the bottom of this file, so the two cannot drift apart.
import { z } from "zod";
import { toolSchema } from "../catalog/index.ts";
import type { FeedbackOutcome } from "./feedback-gate.ts";
import { definitionFormatSchema } from "./requests.ts";
import type {
  CallResult,
  ExecutedCall,
  RouteAndExecuteResponse,
  RouteResponse,
  Step,
  SynthesisResponse,
} from "./types.ts";

const errorClassSchema = z.enum([
  "connection",
  "credentials",
  "rate_limit",
  "fatal",
  "unknown",
  "schema",
  "timeout",
  "cancelled",
  "unknown_tool",
  "queue_timeout",
  "key_limit",
  "breaker_open",
  "sandbox_crashed",
]);

const issueSchema = z.object({ path: z.string(), message: z.string() });

export const errorResponseSchema = z
  .object({
    error: z.object({
      code: z
        .string()
        .meta({ description: "Stable machine-readable code, e.g. not_found, invalid, not_ready" }),
      message: z.string().meta({ description: "One sentence naming the problem and its place" }),
      issues: z.array(issueSchema).optional(),
    }),
  })
  .meta({ id: "Error" });

const whySchema = z.object({
  dense: z.number(),
  lexical: z.number(),
  subword: z.number(),
  fused: z.number(),
  tier: z.union([z.literal(1), z.literal(2), z.literal("global")]),
  category: z.string().optional(),
});

export const routeResponseSchema = z
  .object({
    query: z.string(),
    matched: z.boolean().meta({ description: "Whether the best tool clears the threshold" }),
    threshold: z.number(),
    notices: z.array(z.string()),
    format: definitionFormatSchema,
    tools: z.array(
      z.object({
        name: z.string(),
        score: z.number(),
        why: whySchema,
        definition: z.record(z.string(), z.unknown()).meta({ description: "In the requested format" }),
      }),
    ),
    context: z.object({
      returnedTokens: z.number(),
      catalogTokens: z.number(),
      savedTokens: z.number(),
      savedRatio: z.number(),
    }),
  })
  .meta({ id: "RouteResponse" });

const PROVIDER_DESCRIPTION =
  "A maintainer key sees the provider's id (binding type and its URL template, command or file); an agent " +
  "key sees its binding type and a hash of the id (http:1a2b3c4d5e6f)";

export const callResultSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(["completed", "failed", "timeout", "cancelled"]),
    output: z.unknown().optional(),
    error: z
      .object({ class: errorClassSchema, message: z.string(), issues: z.array(issueSchema).optional() })
      .optional(),
    provenance: z.object({
      provider: z.string().optional().meta({ description: PROVIDER_DESCRIPTION }),
      attempts: z.number(),
      stale: z.boolean(),
      ageMs: z.number().optional(),
      breakers: z
        .record(z.string(), z.enum(["closed", "open", "half_open", "isolated"]))
        .meta({ description: `By provider. ${PROVIDER_DESCRIPTION}` }),
      warnings: z.array(z.string()).optional(),
    }),
    timing: z.object({ queuedMs: z.number(), runMs: z.number(), totalMs: z.number() }),
  })
  .meta({ id: "CallResult" });

export const executeResponseSchema = z.object({ results: z.array(callResultSchema) });

const synthesisIssueSchema = z.object({
  message: z.string(),
  line: z.number().optional(),
  column: z.number().optional(),
  path: z.string().optional(),
});
const synthesisStageSchema = z.enum(["definition", "static", "compile", "runtime", "output"]);
const registeredToolSchema = z.looseObject({ name: z.string() }).meta({ description: "A catalog tool" });

// One step of a route-and-execute answer: the kinds are fixed, their fields documented loosely (the route
// step's candidates, the arguments filled, the validation issues, the execution's call result).
const stepSchema = z.looseObject({
  step: z.enum(["route", "arguments", "split", "validate", "execute", "synthesize", "register", "elicit"]),
  tool: z.string().optional(),
  ok: z.boolean().optional(),
  result: callResultSchema.optional(),
});

const ROUTE_AND_EXECUTE_STATUSES = [
  "completed",
  "partial",
  "failed",
  "invalid_arguments",
  "needs_input",
  "no_match",
  "synthesis_failed",
] as const;

export const executedCallSchema = z
  .object({
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    result: callResultSchema,
    intent: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: "Index in `intents` of the part that ran it" }),
  })
  .meta({ id: "ExecutedCall", description: "A call that ran while answering the request" });

export const routeAndExecuteResponseSchema = z.looseObject({
  status: z.enum(ROUTE_AND_EXECUTE_STATUSES).meta({
    description:
      "completed/failed: the call ran; partial: several intents, some ran and others did not complete; " +
      "needs_input: answer `question`; no_match: nothing fits; invalid_arguments: fix the arguments the " +
      "validate step names; synthesis_failed: the written tool failed its checks",
  }),
  tool: z.string().optional(),
  result: callResultSchema.optional(),
  question: z
    .string()
    .optional()
    .meta({ description: "What to ask the user when the status is needs_input" }),
  intent: z.string().optional(),
  intents: z
    .array(z.looseObject({ status: z.enum(ROUTE_AND_EXECUTE_STATUSES) }))
    .optional()
    .meta({ description: "One answer per intent, in order, when the request asked for several things" }),
  calls: z.array(executedCallSchema).optional().meta({
    description:
      "Every call that ran for this request, once each, in order (with its arguments and result); empty when nothing ran",
  }),
  steps: z.array(stepSchema),
});

export const synthesisResponseSchema = z.union([
  z.object({
    ok: z.literal(true),
    tool: registeredToolSchema,
    tests: z.array(
      z.object({
        arguments: z.record(z.string(), z.unknown()),
        output: z.unknown(),
        console: z.array(z.object({ level: z.enum(["log", "info", "warn", "error"]), message: z.string() })),
      }),
    ),
  }),
  z.object({
    ok: z.literal(false),
    stage: synthesisStageSchema,
    kind: z.string(),
    errors: z.array(synthesisIssueSchema),
  }),
]);

export const feedbackResponseSchema = z.object({
  recorded: z.number().int().meta({ description: "Pairs taken in: learned now or counted as a vote" }),
  learned: z.number().int().meta({ description: "Pairs that teach the router from now on" }),
  pending: z.number().int().meta({ description: "Pairs waiting for more distinct agent keys" }),
  ignored: z.number().int().meta({ description: "An agent key's pairs for a possibly destructive tool" }),
});

export const toolProvenanceSchema = z
  .object({
    origin: z.enum(["catalog", "api", "synthesized"]).meta({
      description:
        "catalog: the operator's catalog files; api: put by a maintainer key; synthesized: written by the sandbox synthesizer",
    }),
    updatedAt: z
      .string()
      .optional()
      .meta({ description: "ISO time of the last change through the API; absent for catalog-file tools" }),
    synthesis: z
      .object({
        status: z.enum(["pending", "published"]).meta({
          description:
            "pending: written for an agent key's request, routed and run for that key alone until a maintainer promotes it (POST /v1/tools/{name}/promote); published: routed for every key",
        }),
        owner: z.string().optional().meta({
          description:
            "The id of the key it was written for (role and key fingerprint, e.g. agent:1a2b3c4d5e6f; never the key). Shown to maintainer keys and the owner",
        }),
        at: z.string().meta({ description: "ISO time it was synthesized" }),
        request: z.string().optional().meta({
          description:
            "What was asked: the route-and-execute query, or the synthesize request's description. Shown to maintainer keys and the owner",
        }),
        promotedAt: z.string().optional().meta({ description: "ISO time a maintainer promoted it" }),
      })
      .optional()
      .meta({ description: "Synthesized tools only" }),
  })
  .meta({ id: "ToolProvenance" });

export const toolListingSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string(),
    category: z.string().optional(),
    version: z.number().optional(),
    ...toolProvenanceSchema.shape,
  })
  .meta({ id: "ToolListing" });
export type ToolListing = z.infer<typeof toolListingSchema>;

export const toolListResponseSchema = z.object({ tools: z.array(toolListingSchema) }).meta({
  description:
    "The tools this key may use: the published ones and the key's own pending ones; a maintainer key gets every tool, pending ones included, for review",
});

export const toolListQuerySchema = z.strictObject({
  origin: toolProvenanceSchema.shape.origin.optional(),
  status: z
    .enum(["pending", "published"])
    .optional()
    .meta({ description: "Synthesized tools of this status only" }),
});

export const promoteResponseSchema = z
  .object({ promoted: toolListingSchema })
  .meta({ description: "The tool as listed after the promotion" });

/**
 * A full tool definition as stored: the catalog's own schema as output (defaults filled in), named apart
 * from the "Tool" a PUT body is, whose defaulted fields are optional.
 */
export const toolResponseSchema = toolSchema.meta({ id: "StoredTool" });

/**
 * What an agent key sees of a tool: what it needs to call it (names, description, schemas, hints), not the
 * operator's or maintainer's wiring (binding, policy, example calls). A plain object strips other keys, so
 * parsing a stored tool with it is the view.
 */
export const agentToolResponseSchema = z
  .object(
    toolSchema.pick({
      name: true,
      title: true,
      description: true,
      inputSchema: true,
      outputSchema: true,
      annotations: true,
      category: true,
      tags: true,
      examples: true,
      version: true,
    }).shape,
  )
  .meta({
    id: "AgentTool",
    description: "A tool as an agent key sees it: no binding, policy or example calls",
  });

export const toolViewResponseSchema = z
  .union([toolResponseSchema, agentToolResponseSchema])
  .meta({ description: "A maintainer key gets the StoredTool, an agent key the AgentTool" });

export const deletedResponseSchema = z.object({ deleted: z.string() });

const executionStatusSchema = z.enum(["in_progress", "completed", "failed", "timeout", "cancelled"]);

export const executionsResponseSchema = z.object({
  executions: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: executionStatusSchema,
      startedAt: z.number(),
      finishedAt: z.number().optional(),
      timing: z.object({ queuedMs: z.number(), runMs: z.number(), totalMs: z.number() }).optional(),
      provider: z.string().optional().meta({ description: PROVIDER_DESCRIPTION }),
      attempts: z.number().optional(),
      errorClass: errorClassSchema.optional(),
    }),
  ),
});

export const executionsQuerySchema = z.strictObject({
  key: z
    .string()
    .regex(/^[a-z]+:[0-9a-f]{12}$|^local$/, "must be a key id such as agent:1a2b3c4d5e6f")
    .optional()
    .meta({ description: "A key id (maintainer keys; an agent key may name only its own)" }),
  tool: z.string().min(1).max(128).optional().meta({ description: "Calls of this tool only" }),
  status: executionStatusSchema.optional(),
  limit: z.coerce
    .number()
    .int("must be a whole number")
    .min(1)
    .max(10_000)
    .default(100)
    .meta({ description: "At most this many, newest first (default 100)" }),
});

export const breakersResponseSchema = z.object({
  breakers: z.array(
    z.object({
      tool: z.string(),
      provider: z.string().meta({ description: PROVIDER_DESCRIPTION }),
      state: z.enum(["closed", "open", "half_open", "isolated"]),
      since: z.number().meta({ description: "When the breaker entered this state (ms since the epoch)" }),
    }),
  ),
});

export const whoamiResponseSchema = z.object({
  role: z.enum(["agent", "maintainer"]),
  id: z.string().meta({
    description:
      "The key id: its role and a fingerprint of the key (maintainer:1a2b3c4d5e6f), or local without keys",
  }),
});

export const feedbackVotesResponseSchema = z.object({
  votes: z.array(
    z.object({
      query: z.string(),
      tool: z.string(),
      voters: z.array(z.string()).meta({ description: "Key ids (role and position) that sent the pair" }),
      needed: z.number().int().meta({ description: "Distinct agent keys the pair needs to be learned" }),
    }),
  ),
});

export const inspectResponseSchema = z.object({
  url: z.string(),
  status: z.number().nullable(),
  title: z.string(),
  verdict: z.enum(["static", "dynamic"]),
  reasons: z.array(z.string()),
  static: z.object({ textLength: z.number() }),
  rendered: z.object({ textLength: z.number() }),
  frameworks: z.array(z.string()),
  candidates: z.array(z.looseObject({})).meta({ description: "Repeated elements and their selectors" }),
  blocked: z.array(z.looseObject({})).meta({ description: "Requests the egress rules refused" }),
});

// Compile-time agreement of the hand-written answer types with these schemas: each line fails to type-check
// when a type gains a field its schema lacks, or the reverse.
type Agrees<Schema, Type> = [Type] extends [Schema] ? ([Schema] extends [Type] ? true : false) : false;
true satisfies Agrees<z.infer<typeof callResultSchema>, CallResult>;
true satisfies Agrees<z.infer<typeof executedCallSchema>, ExecutedCall>;
true satisfies Agrees<z.infer<typeof stepSchema>["step"], Step["step"]>;
true satisfies Agrees<
  z.infer<typeof routeAndExecuteResponseSchema>["status"],
  RouteAndExecuteResponse["status"]
>;
true satisfies Agrees<keyof z.infer<typeof routeResponseSchema>, keyof RouteResponse>;
true satisfies Agrees<z.infer<typeof synthesisResponseSchema>["ok"], SynthesisResponse["ok"]>;
true satisfies Agrees<z.infer<typeof feedbackResponseSchema>, FeedbackOutcome>;
