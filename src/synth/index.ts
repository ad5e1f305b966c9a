export { CapabilityError, isAllowed } from "./capabilities.ts";
export { checkCode } from "./check.ts";
export { type ConsoleLine, SandboxError, type SandboxErrorKind, type Violation } from "./errors.ts";
export {
  Sandbox,
  type SandboxOptions,
  type SandboxRunRequest,
  type SandboxRunResult,
} from "./sandbox.ts";
