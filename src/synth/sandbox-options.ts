// What a Sandbox is opened with, what a run asks and what it answers: the shapes callers of sandbox.ts see.
import type { Capabilities } from "../catalog/index.ts";
import type { EgressPolicy } from "../egress/index.ts";
import type { BrowserCapability } from "./capability-requests.ts";
import type { ConsoleLine } from "./errors.ts";

export interface SandboxOptions {
  /** Memory limit per isolate, in MB (isolated-vm's minimum is 8). */
  memoryLimitMb?: number;
  /** Largest result, in characters of JSON. */
  maxOutputChars?: number;
  /** Deadline of a run that does not give one. */
  defaultTimeoutMs?: number;
  /**
   * Tools whose warm isolates each host keeps (default 32); the least recently used beyond it are disposed.
   * A warm isolate holds a few MB resident, so the default keeps warm isolates to a fraction of a host's
   * memory ceiling.
   */
  maxWarmTools?: number;
  /** Host processes; default one per core. */
  hosts?: number;
  /** Resident-memory ceiling of each host, in MB; a host over it is killed and replaced. */
  hostMemoryLimitMb?: number;
  /** Runs one host holds at once; further calls wait in the queue. */
  maxCallsPerHost?: number;
  /** The host program (default src/synth/host/main.ts); tests put a faulty stand-in here. */
  hostEntry?: string;
  /** Where ctx.fetch may connect; without one, public addresses only. */
  egress?: EgressPolicy;
  /** Serves ctx.browser (src/browser's supervisor); without it a tool granted `browser` fails using it. */
  browser?: BrowserCapability;
}

export interface SandboxRunRequest {
  code: string;
  name: string;
  args: unknown;
  capabilities?: Capabilities;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The session context keys the tool may read, as `ctx.context` (a copy); also offers ctx.setContext. */
  context?: Record<string, unknown>;
}

export interface SandboxRunResult {
  value: unknown;
  console: ConsoleLine[];
  /** What the tool passed to ctx.setContext, merged; only when the run was given a context. */
  contextChanges?: Record<string, unknown>;
}

/** A host process as operators and tests see it. */
export interface SandboxHostInfo {
  pid: number | undefined;
  ready: boolean;
  calls: number;
}
