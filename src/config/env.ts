// Configuration from the environment, validated by one zod schema; a bad value gets one sentence naming
// the variable. Flags override these per command.
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The embedders SWITCHBOARD_EMBEDDER may name; see src/embed. */
export const EMBEDDER_KINDS = ["use-lite", "use-lite-tfjs", "transformers"] as const;

export const BUNDLED_CATALOG = fileURLToPath(new URL("../../catalog", import.meta.url));

const keyList = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  )
  .optional();

const nameList = z
  .string()
  .default("")
  .transform((s) =>
    s
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  );

export const envSchema = z.object({
  SWITCHBOARD_DATA: z.string().min(1).default(".switchboard"),
  SWITCHBOARD_CATALOG: z.string().min(1).default(BUNDLED_CATALOG),
  SWITCHBOARD_HOST: z.string().min(1).default("127.0.0.1"),
  SWITCHBOARD_PORT: z.coerce.number().int().min(0).max(65535).default(7070),
  SWITCHBOARD_EMBEDDER: z.enum(EMBEDDER_KINDS).default("use-lite"),
  SWITCHBOARD_MODEL: z.string().min(1).optional(),
  SWITCHBOARD_LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info"),
  /** Readable lines on a terminal and JSON elsewhere, unless set. */
  SWITCHBOARD_LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  SWITCHBOARD_LLM_BASE_URL: z.url().optional(),
  SWITCHBOARD_LLM_MODEL: z.string().min(1).optional(),
  SWITCHBOARD_LLM_API_KEY: z.string().min(1).optional(),
  SWITCHBOARD_AGENT_KEYS: keyList,
  SWITCHBOARD_MAINTAINER_KEYS: keyList,
  /** A Chromium executable to use instead of the one @sparticuz/chromium ships. */
  SWITCHBOARD_CHROMIUM: z.string().min(1).optional(),
  /** PostgreSQL shared by replicas (catalog overlay, feedback, calibrations, embeddings, execution log). */
  SWITCHBOARD_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  /** Redis (or Valkey) shared by replicas (breakers, rate limits, idempotency keys). */
  SWITCHBOARD_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  /** Requests per minute per API key on the HTTP API. */
  SWITCHBOARD_RATE_LIMIT: z.coerce.number().int().min(1).default(600),
  /** Executables an `mcp` binding of a tool put through the API or synthesized may start. */
  SWITCHBOARD_MCP_COMMANDS: nameList,
  /** Non-public destinations tools may reach: hosts, host:port pairs, IP addresses, CIDR ranges. */
  SWITCHBOARD_EGRESS_ALLOW: nameList,
  /** Environment variables that {env.NAME} may read in a tool put through the API. */
  SWITCHBOARD_TOOL_SECRETS: nameList.superRefine((names, context) => {
    for (const name of names.filter(isOwnSetting))
      context.addIssue({
        code: "custom",
        message: `${name} is Switchboard's own setting, never a tool secret`,
      });
  }),
  /** The longest route-and-execute request (an agent's message) the service takes, in characters. */
  SWITCHBOARD_MAX_REQUEST_CHARS: z.coerce.number().int().min(100).max(1_000_000).default(32_000),
  /** Distinct agent keys that must confirm a feedback pair before routing learns it. */
  SWITCHBOARD_FEEDBACK_QUORUM: z.coerce.number().int().min(1).default(3),
  /**
   * What route-and-execute does for an agent key when nothing matches and an LLM is configured: "private"
   * synthesizes a tool only that key may use until a maintainer promotes it; "off" answers no_match.
   */
  SWITCHBOARD_AGENT_SYNTHESIS: z.enum(["off", "private"]).default("private"),
  /** Tools synthesized per agent key per hour, at most (each one costs LLM calls and a sandbox run). */
  SWITCHBOARD_AGENT_SYNTHESIS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * The dispatcher's options as JSON (src/dispatch/README.md), e.g. {"perKeyCalls": 32}; checked field by
   * field when the service opens.
   */
  SWITCHBOARD_DISPATCH: z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined || text.trim() === "") return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({
          code: "custom",
          message: "is not JSON (expected an object of dispatcher options)",
        });
        return z.NEVER;
      }
    }),
});

/**
 * Switchboard's own settings and keys: no tool reads them through {env.NAME}, whoever wrote the tool.
 * The names of the schema, and the credential-like names other parts of Switchboard read directly.
 */
export function isOwnSetting(name: string): boolean {
  return (
    Object.hasOwn(envSchema.shape, name) || /^SWITCHBOARD_(.*_KEYS|DATABASE_.*|REDIS_.*|LLM_.*)$/.test(name)
  );
}

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new ConfigError(`bad configuration in the environment:\n  ${lines.join("\n  ")}`);
}
