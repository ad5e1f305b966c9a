// The tool definition: MCP-shaped (a `tools/list` entry from any MCP server drops in) plus Switchboard's
// own optional fields. This zod schema is the single source of truth: types, validation and the JSON
// Schema shipped for editors (schema/catalog.schema.json) all come from it.
import { z } from "zod";
import { outputMapSchema } from "./mapping-schema.ts";

export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const MAX_DESCRIPTION_CHARS = 4000;

export const TOOL_NAME_ADVICE = "should be 1-64 characters of letters, digits, '_', '.' or '-'";

/**
 * MCP says tool names SHOULD match TOOL_NAME_PATTERN, and real catalogs break it ("PDF&URLTool"), so the
 * schema only requires a name; the loader reports the pattern as a warning.
 */
export const toolNameSchema = z
  .string()
  .min(1, "must not be empty")
  .max(128, "must be at most 128 characters");

/** A JSON Schema object; whether it is a *valid* JSON Schema is checked by `checkJsonSchema`. */
export const jsonSchemaObjectSchema = z
  .looseObject({ type: z.literal("object", { error: 'must have "type": "object"' }) })
  .meta({ description: "A JSON Schema describing an object" });

export const annotationsSchema = z
  .looseObject({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .meta({ description: "MCP tool annotations: hints about the tool's behaviour" });

const fetchCapabilitySchema = z.strictObject({
  allow: z
    .array(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }))
    .min(1)
    .meta({ description: "URL prefixes the tool may fetch; redirects are re-checked against them" }),
  methods: z.array(z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])).default(["GET"]),
  maxBytes: z.number().int().positive().default(2_000_000),
  timeoutMs: z.number().int().positive().default(10_000),
});

const browserCapabilitySchema = z.strictObject({
  allow: z
    .array(z.url({ protocol: /^(https?|wss?)$/, error: "must be an http(s) or ws(s) URL" }))
    .min(1)
    .meta({
      description:
        "URL prefixes the page may load (documents, scripts, XHR/fetch, WebSockets, workers, redirects); everything else is blocked",
    }),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(120_000)
    .default(15_000)
    .meta({ description: "Deadline of each browser operation (open, waitFor, click…)" }),
  maxPages: z
    .number()
    .int()
    .positive()
    .max(50)
    .default(5)
    .meta({ description: "Pages opened per call (ctx.browser.open)" }),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(20_000_000)
    .meta({ description: "Bytes the page may receive per call, all requests together" }),
  maxContentChars: z
    .number()
    .int()
    .positive()
    .default(2_000_000)
    .meta({ description: "Largest content() or text() answer, in characters" }),
  maxScreenshotBytes: z
    .number()
    .int()
    .positive()
    .default(2_000_000)
    .meta({ description: "Largest screenshot, in bytes of PNG" }),
});

export const capabilitiesSchema = z
  .strictObject({
    fetch: fetchCapabilitySchema.optional(),
    browser: browserCapabilitySchema.optional().meta({
      description: "A headless Chromium page per call (ctx.browser): open, click, fill, extract, screenshot",
    }),
    html: z.boolean().optional().meta({ description: "Host-side HTML parsing with CSS selectors" }),
    console: z.boolean().optional().meta({ description: "Capture console output (default true)" }),
  })
  .meta({ description: "What a sandboxed tool may reach; nothing else is visible inside the isolate" });

const contextKeySchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/,
    "must be a letter or '_' then up to 63 letters, digits, '_' or '-'",
  )
  // Context keys become object keys of every session's context: "__proto__" would set its prototype.
  .refine((key) => !["__proto__", "constructor", "prototype"].includes(key), {
    message: "must not be __proto__, constructor or prototype",
  });

const contextKeysSchema = z.array(contextKeySchema).max(32);

/** Which keys of the session's context a provider sees, and which it may change. */
export const contextAccessSchema = z
  .strictObject({
    read: contextKeysSchema.optional().meta({ description: "Context keys the tool is given" }),
    write: contextKeysSchema.optional().meta({ description: "Context keys the tool may set" }),
  })
  .meta({ description: "The session context this provider reads and changes" });

export const sandboxBindingSchema = z
  .strictObject({
    type: z.literal("sandbox"),
    file: z.string().min(1).optional().meta({
      description:
        "JavaScript file, relative to the catalog file that declares the tool and inside the catalog folder (catalog files only; tools put through the API carry `code`)",
    }),
    code: z.string().min(1).optional().meta({ description: "Inline JavaScript source" }),
    capabilities: capabilitiesSchema.optional(),
    map: outputMapSchema.optional(),
    context: contextAccessSchema.optional().meta({
      description: "ctx.context holds the read keys (a copy); ctx.setContext({...}) sets write keys",
    }),
  })
  .refine((b) => (b.file === undefined) !== (b.code === undefined), {
    message: "a sandbox binding needs exactly one of 'file' or 'code'",
  });

export const httpBindingSchema = z
  .strictObject({
    type: z.literal("http"),
    method: z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
    url: z
      .string()
      .min(1)
      .meta({ description: "URL template; {param} is replaced by the URL-encoded argument" }),
    query: z.record(z.string(), z.string()).optional().meta({ description: "Query parameter → template" }),
    headers: z.record(z.string(), z.string()).optional().meta({
      description:
        "Header → template; {env.NAME} reads a secret from the environment variable NAME (through the API: only names in SWITCHBOARD_TOOL_SECRETS)",
    }),
    body: z.string().optional().meta({ description: "Name of the argument sent as the JSON body" }),
    bodyFrom: z.literal("arguments").optional().meta({
      description:
        'With "arguments": every argument the URL, query and headers do not use goes in one JSON object body (what most REST APIs take); not with `body`',
    }),
    select: z.string().optional().meta({ description: "Dot path into the JSON response that is the output" }),
    timeoutMs: z.number().int().positive().optional(),
    map: outputMapSchema.optional(),
    context: z
      .strictObject({
        read: contextKeysSchema
          .optional()
          .meta({ description: "Context keys {context.KEY} may name in query and header templates" }),
        write: z
          .record(contextKeySchema, z.string().min(1))
          .optional()
          .meta({ description: "Context key → dot path into the JSON response whose value it is set to" }),
      })
      .optional()
      .meta({ description: "The session context this provider reads and changes" }),
  })
  .refine((b) => b.body === undefined || b.bodyFrom === undefined, {
    message: "an http binding takes 'body' (one argument) or 'bodyFrom' (all arguments), not both",
  });

export const mcpBindingSchema = z.strictObject({
  type: z.literal("mcp"),
  command: z.string().min(1).optional().meta({
    description: "Command that starts an MCP stdio server (through the API: only SWITCHBOARD_MCP_COMMANDS)",
  }),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional().meta({
    description: "Environment for a stdio server beyond PATH/HOME; values may use {env.NAME} (e.g. tokens)",
  }),
  url: z.url().optional().meta({ description: "Streamable HTTP endpoint of an MCP server" }),
  headers: z.record(z.string(), z.string()).optional().meta({
    description: "HTTP headers for a Streamable HTTP server; values may use {env.NAME}",
  }),
  tool: z.string().optional().meta({ description: "The server's tool name, when it differs from `name`" }),
  map: outputMapSchema.optional(),
  context: contextAccessSchema.optional().meta({
    description:
      'Read keys go to the server in the request\'s _meta["switchboard/context"]; a result\'s _meta["switchboard/context"] sets write keys',
  }),
});

export const bindingSchema = z.discriminatedUnion(
  "type",
  [sandboxBindingSchema, httpBindingSchema, mcpBindingSchema],
  {
    error: 'unknown binding type; use "sandbox", "http" or "mcp"',
  },
);

export const retryPolicySchema = z.strictObject({
  retries: z.number().int().min(0).max(20).optional(),
  baseMs: z.number().int().min(0).optional(),
  maxMs: z.number().int().min(0).optional(),
  jitter: z.number().min(0).max(1).optional(),
  strategy: z.enum(["proportional", "decorrelated"]).optional(),
  idempotencyKey: z
    .string()
    .optional()
    .meta({ description: "Argument that carries an idempotency key; makes a write tool retryable" }),
});

export const breakerPolicySchema = z.strictObject({
  failureRate: z.number().gt(0).max(1).optional(),
  minCalls: z.number().int().positive().optional(),
  windowSize: z.number().int().positive().optional().meta({ description: "Count-based window" }),
  windowMs: z.number().int().positive().optional().meta({ description: "Time-based window" }),
  cooldownMs: z.number().int().positive().optional(),
  halfOpenProbes: z.number().int().positive().optional(),
});

export const errorRulesSchema = z
  .strictObject({
    connection: z.array(z.union([z.string(), z.number()])).optional(),
    credentials: z.array(z.union([z.string(), z.number()])).optional(),
    rateLimit: z.array(z.union([z.string(), z.number()])).optional(),
    fatal: z.array(z.union([z.string(), z.number()])).optional(),
  })
  .meta({ description: "Extra classification: HTTP statuses, error codes or message patterns per class" });

export const policySchema = z.strictObject({
  timeoutMs: z.number().int().positive().optional(),
  concurrency: z
    .strictObject({
      safe: z.boolean().optional().meta({ description: "May run in parallel with other safe calls" }),
      limit: z.number().int().positive().optional().meta({ description: "Instances of this tool at once" }),
    })
    .optional(),
  retry: retryPolicySchema.optional(),
  breaker: breakerPolicySchema.optional(),
  fallback: z.array(bindingSchema).optional().meta({ description: "Secondary providers, tried in order" }),
  cache: z
    .strictObject({ ttlMs: z.number().int().min(0), staleMs: z.number().int().min(0).optional() })
    .optional(),
  resultBudget: z.strictObject({ tokens: z.number().int().positive() }).optional(),
  errors: errorRulesSchema.optional(),
  kind: z
    .enum(["read", "search", "write", "terminal", "compute"])
    .optional()
    .meta({ description: "Used for default concurrency limits and result budgets" }),
  degraded: z.unknown().optional().meta({
    description: "Output served, with a warning, when every provider and the cache have failed",
  }),
});

export const toolSchema = z
  .looseObject({
    name: toolNameSchema,
    title: z.string().optional(),
    description: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(MAX_DESCRIPTION_CHARS, `must be at most ${MAX_DESCRIPTION_CHARS} characters`),
    inputSchema: jsonSchemaObjectSchema,
    outputSchema: jsonSchemaObjectSchema.optional(),
    annotations: annotationsSchema.optional(),
    category: z.string().min(1).optional().meta({ description: "Department for tier-1 routing" }),
    tags: z.array(z.string().min(1)).optional(),
    examples: z.array(z.string().min(1)).optional().meta({ description: "Example user queries" }),
    exampleCalls: z
      .array(
        z.strictObject({
          query: z.string().min(1).optional(),
          arguments: z.record(z.string(), z.unknown()),
          output: z.record(z.string(), z.unknown()).meta({ description: "Fields the answer must contain" }),
        }),
      )
      .optional()
      .meta({ description: "Calls with known answers; the catalog's tests run them" }),
    binding: bindingSchema.optional(),
    policy: policySchema.optional(),
    version: z.number().int().positive().optional(),
  })
  .meta({ id: "Tool", description: "A Switchboard tool definition (MCP-shaped)" });

export const catalogFileSchema = z.union([
  z.array(toolSchema),
  z.looseObject({ tools: z.array(toolSchema) }),
]);

export type Tool = z.infer<typeof toolSchema>;
export type Binding = z.infer<typeof bindingSchema>;
export type SandboxBinding = z.infer<typeof sandboxBindingSchema>;
export type HttpBinding = z.infer<typeof httpBindingSchema>;
export type McpBinding = z.infer<typeof mcpBindingSchema>;
export type Capabilities = z.infer<typeof capabilitiesSchema>;
export type BrowserGrant = z.infer<typeof browserCapabilitySchema>;
export type ToolPolicy = z.infer<typeof policySchema>;
export type RetryPolicy = z.infer<typeof retryPolicySchema>;
export type BreakerPolicy = z.infer<typeof breakerPolicySchema>;
export type ErrorRules = z.infer<typeof errorRulesSchema>;
