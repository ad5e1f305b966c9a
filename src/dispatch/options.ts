// Global dispatcher options (validated with zod) and the effective policy of one tool: its catalog
// `policy` over these defaults, worked out once per tool definition rather than on every call. The defaults
// are chosen for continuity without per-tool tuning; src/dispatch/README.md gives the reasoning and the
// breaker's false-trip probabilities under them.
import { z } from "zod";
import type { Tool } from "../catalog/index.ts";

const retryOptionsSchema = z.strictObject({
  retries: z.number().int().min(0).max(20).default(10),
  baseMs: z.number().int().min(0).default(500),
  maxMs: z.number().int().min(0).default(30_000),
  jitter: z.number().min(0).max(1).default(0.5),
  strategy: z.enum(["proportional", "decorrelated"]).default("proportional"),
});

// No defaults for the rate-window fields: a breaker that sets none of them counts consecutive provider
// faults (see breaker-strategy.ts); setting any of them selects a failure-rate window instead.
const breakerOptionsSchema = z.strictObject({
  consecutiveFailures: z.number().int().positive().default(30),
  failureRate: z.number().gt(0).max(1).optional(),
  minCalls: z.number().int().positive().optional(),
  windowSize: z.number().int().positive().optional(),
  windowMs: z.number().int().positive().optional(),
  cooldownMs: z.number().int().positive().default(5_000),
  halfOpenProbes: z.number().int().positive().default(1),
});

const retryBudgetOptionsSchema = z.strictObject({
  /** Tokens each call to a provider adds; a retry takes one. 0.5 allows one retry per two calls. */
  ratio: z.number().min(0).max(10).default(0.5),
  /** The most tokens saved up (and the number a fresh budget starts with). */
  capacity: z.number().int().min(0).default(100),
  /** Tokens added per second however few calls there are, so a quiet tool can still retry. */
  perSecond: z.number().min(0).default(1),
});

export const dispatcherOptionsSchema = z.strictObject({
  retry: retryOptionsSchema.prefault({}),
  breaker: breakerOptionsSchema.prefault({}),
  retryBudget: retryBudgetOptionsSchema.prefault({}),
  /** Each caller's (key's) own retry budget, over all its tools: a retry needs a token from both. */
  keyRetryBudget: retryBudgetOptionsSchema.prefault({}),
  /** Per attempt, unless the tool sets `policy.timeoutMs`. */
  timeoutMs: z.number().int().positive().default(30_000),
  /** A call's whole run, retries and their waits included, from the moment it holds its slots. */
  deadlineMs: z.number().int().positive().default(120_000),
  globalConcurrency: z.number().int().positive().default(10),
  /**
   * Calls one key may have under way at once (in flight, queued for slots, waiting for a retry); more
   * fail at once as `key_limit`. One full batch (64 calls) by default.
   */
  perKeyCalls: z.number().int().positive().default(64),
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
export type RetryBudgetSettings = z.output<typeof retryBudgetOptionsSchema>;

export function parseOptions(input: DispatcherOptionsInput | undefined): DispatcherOptions {
  const parsed = dispatcherOptionsSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new TypeError(`dispatcher options.${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
}

const kindLimits = { read: 20, search: 10, write: 1, terminal: 1, compute: 10 } as const;

export interface EffectivePolicy {
  timeoutMs: number;
  /** Read-only or idempotent: may be attempted more than once per call. */
  retryable: boolean;
  idempotencyKey?: string;
  retry: RetrySettings;
  breaker: BreakerSettings;
  concurrencyLimit: number;
  /** Default concurrency safety when no provider judges the arguments. */
  concurrencySafe: boolean;
  budgetTokens: number;
  cache?: { ttlMs: number; staleMs: number };
}

export function resolvePolicy(tool: Tool, options: DispatcherOptions): EffectivePolicy {
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
  };
  if (idempotencyKey !== undefined) policy.idempotencyKey = idempotencyKey;
  // Caching a tool with side effects would skip the side effect, so only read-only tools are cached.
  if (p.cache && readOnly) policy.cache = { ttlMs: p.cache.ttlMs, staleMs: p.cache.staleMs ?? 0 };
  return policy;
}

/** Whether a call of this tool may be retried at all: keyed write tools only when the key is present. */
export function mayRetry(policy: EffectivePolicy, args: Record<string, unknown>): boolean {
  if (policy.retryable) return true;
  return policy.idempotencyKey !== undefined && args[policy.idempotencyKey] !== undefined;
}
