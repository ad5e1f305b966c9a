// The dispatcher's public shapes: what a provider is, what a call is and what comes back.
import type { SchemaIssue } from "../catalog/index.ts";

/** Shared state a batch of calls runs against (e.g. a working directory); providers read a snapshot. */
export type CallContext = Readonly<Record<string, unknown>>;

export interface InvokeOptions {
  /** Aborted on the call's timeout or when the batch is cancelled. */
  signal: AbortSignal;
  callId: string;
  /** The context as it was when the batch started; changes land only after the batch (see context-modifiers.ts). */
  context: CallContext;
}

/** Something that actually runs a tool: the primary binding or a fallback. */
export interface Provider {
  id: string;
  invoke(args: Record<string, unknown>, options: InvokeOptions): Promise<unknown>;
  /** Called once after a credentials-class failure (401, "token expired"), before the one retry. */
  refreshCredentials?(): Promise<void>;
  /** The tool's own judgement whether these arguments may run alongside other calls. */
  isConcurrencySafe?(args: Record<string, unknown>): boolean;
  /**
   * Whose fault a failure was, when the provider knows better than the error classes: "caller" failures
   * (a tool's code failing on its input) are neither retried nor counted against the breaker, "provider"
   * failures count; undefined leaves it to the classification.
   */
  blame?(error: unknown): "provider" | "caller" | undefined;
  /**
   * The provider's answer in the tool's canonical shape (a binding's declared `map`), applied after the
   * envelope is unwrapped and before the outputSchema check; it throws a MappingError for a bad value.
   */
  mapOutput?(output: unknown, args: Record<string, unknown>): unknown;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments?: Record<string, unknown>;
}

export type CallStatus = "completed" | "failed" | "timeout" | "cancelled";

/**
 * Why a call failed. The four recovery classes (connection, credentials, rate_limit, fatal), the schema
 * outcome, and the dispatcher's own refusals.
 */
export type ErrorClass =
  | "connection"
  | "credentials"
  | "rate_limit"
  | "fatal"
  | "unknown"
  | "schema"
  | "timeout"
  | "cancelled"
  | "unknown_tool"
  | "queue_timeout"
  | "key_limit"
  | "breaker_open"
  | "sandbox_crashed";

export interface CallError {
  class: ErrorClass;
  message: string;
  /** Schema outcome only: the fields that failed, so an LLM can correct its arguments. */
  issues?: SchemaIssue[];
}

export type BreakerStateName = "closed" | "open" | "half_open" | "isolated";

export interface Provenance {
  /** The provider that answered, "cache" for a cached answer, "degraded" for the tool's degraded output. */
  provider?: string;
  /** Provider invocations made for this call, over all providers. */
  attempts: number;
  stale: boolean;
  /** Age of a cached answer. */
  ageMs?: number;
  /** State of every breaker the call met, by provider id, as it was after the call. */
  breakers: Record<string, BreakerStateName>;
  warnings?: string[];
}

export interface CallTiming {
  queuedMs: number;
  runMs: number;
  totalMs: number;
}

export interface CallResult {
  id: string;
  name: string;
  status: CallStatus;
  output?: unknown;
  error?: CallError;
  provenance: Provenance;
  timing: CallTiming;
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  /** The state context modifiers change; defaults to the dispatcher's own. */
  context?: Record<string, unknown>;
  /**
   * Who calls (an API key's id, opaque here): the per-key limit, the fair share of the slot queues and the
   * per-key retry budget are kept under it. Calls without one share the key "".
   */
  caller?: string;
}
