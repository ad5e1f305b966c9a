// Global dispatcher options (validated with zod) and the effective policy of one tool: its catalog
// `policy` over these defaults, worked out once per tool definition rather than on every call.
import { z } from "zod";
import type { SchemaCheck, Tool } from "../catalog/index.ts";
import type { ToolBreaker } from "./breaker.ts";
import type { Semaphore } from "./bulkhead.ts";

const retryOptionsSchema = z.strictObject({
  retries: z.number().int().min(0).max(20).default(3),
  baseMs: z.number().int().min(0).default(500),
  maxMs: z.number().int().min(0).default(60_000),
  jitter: z.number().min(0).max(1).default(0.5),
  strategy: z.enum(["proportional", "decorrelated"]).default("proportional"),
});

const breakerOptionsSchema = z.strictObject({
  failureRate: z.number().gt(0).max(1).default(0.5),
  minCalls: z.number().int().positive().default(10),
  windowSize: z.number().int().positive().default(20),
  windowMs: z.number().int().positive().optional(),
  cooldownMs: z.number().int().positive().default(30_000),
  halfOpenProbes: z.number().int().positive().default(1),
});

export const dispatcherOptionsSchema = z.strictObject({
  retry: retryOptionsSchema.prefault({}),
  breaker: breakerOptionsSchema.prefault({}),
  /** Per attempt, unless the tool sets `policy.timeoutMs`. */
  timeoutMs: z.number().int().positive().default(30_000),
  globalConcurrency: z.number().int().positive().default(10),
  queueTimeoutMs: z.number().int().positive().default(120_000),
  resultBudgetTokens: z.number().int().positive().default(8_000),
  terminalBudgetTokens: z.number().int().positive().default(4_000),
  /** "estimate" is the fitted estimator in tokens.ts; "exact" counts with gpt-tokenizer (o200k_base). */
  tokenizer: z.enum(["estimate", "exact"]).default("estimate"),
  historySize: z.number().int().min(0).default(100),
  staleInProgressMs: z.number().int().positive().default(300_000),
  cacheEntries: z.number().int().positive().default(1_000),
});

export type DispatcherOptionsInput = z.input<typeof dispatcherOptionsSchema>;
export type DispatcherOptions = z.output<typeof dispatcherOptionsSchema>;
export type RetrySettings = z.output<typeof retryOptionsSchema>;
export type BreakerSettings = z.output<typeof breakerOptionsSchema>;

export function parseOptions(input: DispatcherOptionsInput | undefined): DispatcherOptions {
  const parsed = dispatcherOptionsSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new TypeError(`dispatcher options.${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
}

const kindLimits = { read: 20, search: 10, write: 1, terminal: 1, compute: 10 } as const;

export interface EffectivePolicy {
  timeoutMs: number;
  /** Read-only or idempotent (or keyed): may be attempted more than once per call. */
  retryable: boolean;
  idempotencyKey?: string;
  retry: RetrySettings;
  breaker: BreakerSettings;
  concurrencyLimit: number;
  /** Default concurrency safety when no provider judges the arguments. */
  concurrencySafe: boolean;
  budgetTokens: number;
  cache?: { ttlMs: number; staleMs: number };
  /**
   * The tool's schemas, compiled on first use (in the call, so a schema ajv cannot compile fails that call
   * as before) and kept here, with the rest of what is resolved once per tool definition: the call path
   * then looks up nothing per schema. Measured: `validateAgainstSchema`'s lookup and empty array made a
   * check of a valid value cost ~1.8× the compiled validator alone.
   */
  inputCheck: SchemaCheck | undefined;
  outputCheck: SchemaCheck | undefined;
  /**
   * The breaker of the provider this tool's last call went to first, and the tool's slots with the
   * dispatcher's slot generation they were looked up in: the same answers the registry and the slot map
   * would give (neither changes an entry without the generation or the provider changing), without a
   * hash lookup per call.
   */
  firstBreaker: ToolBreaker | undefined;
  slots: Semaphore | undefined;
  slotsGeneration: number;
}

/**
 * Tool definitions are immutable (the registry replaces them on put), so each dispatcher keeps the
 * effective policy per definition object.
 */
export function policyResolver(options: DispatcherOptions): (tool: Tool) => EffectivePolicy {
  const resolved = new WeakMap<Tool, EffectivePolicy>();
  // The last answer is kept as well (and with it that one tool definition): calls to one tool in a row
  // (a client calling it in a loop) then cost one comparison instead of a WeakMap lookup each.
  let lastTool: Tool | undefined;
  let lastPolicy: EffectivePolicy | undefined;
  return (tool) => {
    if (tool === lastTool && lastPolicy) return lastPolicy;
    const policy = resolved.get(tool) ?? resolve(tool, options, resolved);
    lastTool = tool;
    lastPolicy = policy;
    return policy;
  };
}

function resolve(tool: Tool, options: DispatcherOptions, resolved: WeakMap<Tool, EffectivePolicy>) {
  const p = tool.policy ?? {};
  const readOnly = tool.annotations?.readOnlyHint === true;
  const idempotent = tool.annotations?.idempotentHint === true;
  const kind = p.kind ?? (readOnly ? "read" : "write");
  const { idempotencyKey, ...retry } = p.retry ?? {};
  const policy: EffectivePolicy = {
    timeoutMs: p.timeoutMs ?? options.timeoutMs,
    retryable: readOnly || idempotent,
    retry: { ...options.retry, ...retry },
    breaker: { ...options.breaker, ...p.breaker },
    concurrencyLimit: p.concurrency?.limit ?? kindLimits[kind],
    concurrencySafe: p.concurrency?.safe ?? readOnly,
    budgetTokens:
      p.resultBudget?.tokens ??
      (kind === "terminal" ? options.terminalBudgetTokens : options.resultBudgetTokens),
    inputCheck: undefined,
    outputCheck: undefined,
    firstBreaker: undefined,
    slots: undefined,
    slotsGeneration: -1,
  };
  if (idempotencyKey !== undefined) policy.idempotencyKey = idempotencyKey;
  // Caching a tool with side effects would skip the side effect, so only read-only tools are cached.
  if (p.cache && readOnly) policy.cache = { ttlMs: p.cache.ttlMs, staleMs: p.cache.staleMs ?? 0 };
  resolved.set(tool, policy);
  return policy;
}

/** Retries allowed for this call: keyed write tools are retryable only when the key is present. */
export function mayRetry(policy: EffectivePolicy, args: Record<string, unknown>): boolean {
  if (policy.retryable) return true;
  return policy.idempotencyKey !== undefined && args[policy.idempotencyKey] !== undefined;
}
