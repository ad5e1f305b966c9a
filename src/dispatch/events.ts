// What the dispatcher reports as it works, for metrics and tracing (the service adds Prometheus counters
// and OpenTelemetry spans as listeners; nothing here depends on either).
import type { BreakerChange } from "./breaker.ts";
import type { FailureClass } from "./classify.ts";
import type { CallResult, ErrorClass } from "./types.ts";

export interface RetryNotice {
  callId: string;
  tool: string;
  provider: string;
  /** 1 for the first retry. */
  retry: number;
  class: FailureClass;
  delayMs: number;
}

export interface FallbackNotice {
  callId: string;
  tool: string;
  from: string;
  /** The next provider's id, "cache" for a stale answer or "degraded" for the tool's degraded output. */
  to: string;
  reason: ErrorClass;
}

export interface RejectedNotice {
  callId: string;
  tool: string;
  class: Extract<ErrorClass, "unknown_tool" | "schema" | "queue_timeout" | "key_limit" | "breaker_open">;
  message: string;
}

export interface DispatchEvents {
  call: [CallResult];
  retry: [RetryNotice];
  fallback: [FallbackNotice];
  breaker: [BreakerChange];
  rejected: [RejectedNotice];
}
