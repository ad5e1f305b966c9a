// What a Switchboard is opened with: from the environment (src/config/env.ts) with command-line flags on
// top, or given directly by a program using the library, and validated here either way so that a bad flag
// or option gets the same one-sentence error as a bad variable.
import { z } from "zod";
import { BUNDLED_CATALOG, ConfigError, type Env } from "../config/index.ts";
import { dispatcherOptionsSchema } from "../dispatch/index.ts";
import { parseRule } from "../egress/index.ts";
import { EMBEDDER_KINDS } from "../embed/index.ts";

export const switchboardConfigSchema = z.strictObject({
  /** A catalog file or folder; the bundled catalog by default. */
  catalog: z.string().min(1).default(BUNDLED_CATALOG),
  /** The data folder: index, calibration, learned queries, tool overlay, dispatcher state. */
  data: z.string().min(1).default(".switchboard"),
  embedder: z
    .strictObject({ kind: z.enum(EMBEDDER_KINDS), model: z.string().min(1).optional() })
    .default({ kind: "use-lite" }),
  /** Shared stores for several replicas (docs/deploy.md); without them the data folder holds everything. */
  database: z.string().min(1).optional(),
  redis: z.string().min(1).optional(),
  /** An OpenAI-compatible chat endpoint that writes tools when nothing matches; synthesis from code works without. */
  llm: z
    .strictObject({ baseUrl: z.url(), model: z.string().min(1), apiKey: z.string().min(1).optional() })
    .optional(),
  /** What the operator lets tools put through the API (or synthesized) use; see docs/security-tools.md. */
  security: z
    .strictObject({
      /** Executables an mcp binding may start. */
      mcpCommands: z.array(z.string().min(1)).default([]),
      /** Non-public destinations tools may reach (hosts, host:port, CIDRs), beyond catalog tools' origins. */
      egressAllow: z.array(z.string().min(1)).default([]),
      /** Environment variables {env.NAME} may read. */
      toolSecrets: z.array(z.string().min(1)).default([]),
    })
    .default({ mcpCommands: [], egressAllow: [], toolSecrets: [] }),
  /** Distinct agent keys that must send a feedback pair before it teaches the router (see feedback-gate.ts). */
  feedbackQuorum: z.number().int().min(1).default(3),
  /** The longest route-and-execute request (an agent's message) taken, in characters; routing reads a bounded window of it. */
  maxRequestChars: z.number().int().min(100).max(1_000_000).default(32_000),
  /**
   * Synthesis for agent keys (route-and-execute when nothing matches): "private" writes a tool only that
   * key may use, pending a maintainer's promotion, at most `perHour` per key; "off" never writes one.
   */
  agentSynthesis: z
    .strictObject({
      mode: z.enum(["off", "private"]).default("private"),
      perHour: z.number().int().min(1).max(1000).default(10),
      /** Pending tools per key: a key at the bound gets no new one until a maintainer reviews its others. */
      maxPending: z.number().int().min(1).max(1000).default(20),
    })
    .default({ mode: "private", perHour: 10, maxPending: 20 }),
  /** The browser capability: another Chromium than the packaged one. */
  browser: z.strictObject({ chromium: z.string().min(1).optional() }).default({}),
  /** The dispatcher's options: retries, breakers, slots, per-key limits (src/dispatch/README.md). */
  dispatch: dispatcherOptionsSchema.prefault({}),
});

export type SwitchboardConfig = z.infer<typeof switchboardConfigSchema>;
/** The options a program passes to openSwitchboard; every field has a default. */
export type SwitchboardOptions = z.input<typeof switchboardConfigSchema>;

export interface ConfigOverrides {
  catalog?: string | undefined;
  data?: string | undefined;
}

export function parseConfig(options: SwitchboardOptions): SwitchboardConfig {
  const parsed = switchboardConfigSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(`bad configuration: ${issue?.path.join(".")}: ${issue?.message}`);
}

export function configFrom(env: Env, overrides: ConfigOverrides = {}): SwitchboardConfig {
  const llm =
    env.SWITCHBOARD_LLM_BASE_URL && env.SWITCHBOARD_LLM_MODEL
      ? {
          baseUrl: env.SWITCHBOARD_LLM_BASE_URL,
          model: env.SWITCHBOARD_LLM_MODEL,
          ...(env.SWITCHBOARD_LLM_API_KEY ? { apiKey: env.SWITCHBOARD_LLM_API_KEY } : {}),
        }
      : undefined;
  egressRuleProblem(env.SWITCHBOARD_EGRESS_ALLOW);
  if (env.SWITCHBOARD_LLM_BASE_URL && !env.SWITCHBOARD_LLM_MODEL)
    throw new ConfigError("SWITCHBOARD_LLM_BASE_URL is set but SWITCHBOARD_LLM_MODEL is not: name the model");
  return parseConfig({
    catalog: overrides.catalog ?? env.SWITCHBOARD_CATALOG,
    data: overrides.data ?? env.SWITCHBOARD_DATA,
    embedder: {
      kind: env.SWITCHBOARD_EMBEDDER,
      ...(env.SWITCHBOARD_MODEL ? { model: env.SWITCHBOARD_MODEL } : {}),
    },
    ...(llm ? { llm } : {}),
    security: {
      mcpCommands: env.SWITCHBOARD_MCP_COMMANDS,
      egressAllow: env.SWITCHBOARD_EGRESS_ALLOW,
      toolSecrets: env.SWITCHBOARD_TOOL_SECRETS,
    },
    feedbackQuorum: env.SWITCHBOARD_FEEDBACK_QUORUM,
    maxRequestChars: env.SWITCHBOARD_MAX_REQUEST_CHARS,
    agentSynthesis: {
      mode: env.SWITCHBOARD_AGENT_SYNTHESIS,
      perHour: env.SWITCHBOARD_AGENT_SYNTHESIS_PER_HOUR,
    },
    browser: {
      ...(env.SWITCHBOARD_CHROMIUM ? { chromium: env.SWITCHBOARD_CHROMIUM } : {}),
    },
    ...(env.SWITCHBOARD_DATABASE_URL ? { database: env.SWITCHBOARD_DATABASE_URL } : {}),
    ...(env.SWITCHBOARD_REDIS_URL ? { redis: env.SWITCHBOARD_REDIS_URL } : {}),
    ...(env.SWITCHBOARD_DISPATCH === undefined
      ? {}
      : { dispatch: env.SWITCHBOARD_DISPATCH as SwitchboardOptions["dispatch"] }),
  });
}

/** The allowlist is egress's grammar: checked here, where configuration meets the subsystems, so config stays a leaf. */
function egressRuleProblem(entries: string[]): void {
  const problems: string[] = [];
  for (const entry of entries) {
    try {
      parseRule(entry);
    } catch (error) {
      problems.push(`SWITCHBOARD_EGRESS_ALLOW: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0)
    throw new ConfigError(`bad configuration in the environment:\n  ${problems.join("\n  ")}`);
}
