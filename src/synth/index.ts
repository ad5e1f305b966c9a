export type { BrowserCapability } from "./capability-requests.ts";
export { checkCode } from "./check.ts";
export { type ConsoleLine, SandboxError, type SandboxErrorKind, type Violation } from "./errors.ts";
export {
  type IntentDeps,
  type IntentOutcome,
  type IntentRequest,
  synthesizeFromIntent,
} from "./from-intent.ts";
export {
  Sandbox,
  type SandboxOptions,
  type SandboxRunRequest,
  type SandboxRunResult,
} from "./sandbox.ts";
export {
  type SynthesisDeps,
  type SynthesisFailure,
  type SynthesisIssue,
  type SynthesisOutcome,
  type SynthesisRegistry,
  type SynthesisRequest,
  type SynthesisStage,
  type SynthesisSuccess,
  synthesisRequestSchema,
  synthesize,
  type TestRun,
} from "./synthesize.ts";
