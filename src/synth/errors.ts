// One error type for everything that can go wrong running a tool in the sandbox, with a `kind` that the
// dispatcher classifies on and a position in the tool's code when there is one.

export type SandboxErrorKind =
  | "input" // the arguments are not JSON
  | "static" // the code breaks the static policy (see check.ts)
  | "compile" // V8 refused the code
  | "runtime" // the tool threw (or was refused a capability and did not catch it)
  | "output" // the result is not plain JSON within the size cap
  | "timeout" // the wall-clock deadline passed; the run was stopped (its host killed if it did not stop)
  | "memory" // the isolate hit its memory limit and was disposed
  | "cancelled" // the caller's signal aborted the run; the isolate was disposed
  | "crashed" // the sandbox host process holding the run died (killed over memory, a stuck run, a fault)
  | "closed"; // the sandbox was closed

export interface Violation {
  message: string;
  line: number;
  column: number;
}

/**
 * What the transport said when an upstream a tool reached through a capability (ctx.fetch) failed during
 * its run: a connection error's code, or a 5xx/429 answer's status and headers. Recorded by the parent,
 * never by the tool, so a tool's own text can never claim it.
 */
export interface UpstreamFault {
  status?: number;
  code?: string;
  headers?: Record<string, string>;
}

export class SandboxError extends Error {
  readonly kind: SandboxErrorKind;
  /** `SANDBOX_<KIND>`, for error rules (`policy.errors`) and the dispatcher's classification. */
  readonly code: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly violations: Violation[];
  /** The tool's captured console output up to the failure. */
  readonly console: ConsoleLine[];
  /**
   * The last upstream fault of the run, for a tool that failed after one: also the error's `cause`, where
   * the dispatcher's classification finds its status or code (the provider's fault, retried and counted).
   */
  readonly upstream: UpstreamFault | undefined;

  constructor(
    kind: SandboxErrorKind,
    message: string,
    details: {
      line?: number;
      column?: number;
      violations?: Violation[];
      console?: ConsoleLine[];
      upstream?: UpstreamFault;
    } = {},
  ) {
    super(message, details.upstream === undefined ? undefined : { cause: { ...details.upstream } });
    this.upstream = details.upstream;
    this.name = "SandboxError";
    this.kind = kind;
    this.code = `SANDBOX_${kind.toUpperCase()}`;
    this.line = details.line;
    this.column = details.column;
    this.violations = details.violations ?? [];
    this.console = details.console ?? [];
  }
}

export interface ConsoleLine {
  level: "log" | "info" | "warn" | "error";
  message: string;
}
