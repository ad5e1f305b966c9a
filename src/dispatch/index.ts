export type { BreakerInfo } from "./breaker.ts";
export type { CacheLink } from "./cache.ts";
export { type Classified, classify, parseRetryAfter } from "./classify.ts";
export { type ContextModified, withContextModifier } from "./context-modifiers.ts";
export { Dispatcher, type DispatcherDeps } from "./dispatcher.ts";
export { CallTimeoutError, CancelledError, DispatchError, SchemaError } from "./errors.ts";
export type { DispatchEvents, FallbackNotice, RejectedNotice, RetryNotice } from "./events.ts";
export { type DispatcherOptions, type DispatcherOptionsInput, dispatcherOptionsSchema } from "./options.ts";
export type { ExecutionRecord, ExecutionStatistics } from "./state.ts";
export { estimateTokens } from "./tokens.ts";
export type {
  BreakerStateName,
  CallContext,
  CallError,
  CallResult,
  CallStatus,
  CallTiming,
  ErrorClass,
  ExecuteOptions,
  InvokeOptions,
  Provenance,
  Provider,
  ToolCall,
} from "./types.ts";
