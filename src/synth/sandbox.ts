// Runs tool code in isolated-vm isolates.
//
// Where isolates run: in the main process (the reasons and the measurements are in sandbox/README.md).
// isolated-vm contains what hostile code can provoke on purpose: an out-of-memory disposes only that
// isolate, a runaway loop is cut by the timeout and by disposal from the host, and the escape and abuse
// suite (test/synth/abuse.test.ts) checks that the host keeps serving after each. A child process would
// add an IPC round trip (measured 0.08 ms p50, as much as a whole warm call) and a second boundary for the
// fetch/html bridges, to protect against what is left: a V8 or isolated-vm bug that takes the process down.
//
// Warm path: a fresh context costs ~0.7 ms on this machine, more than the warm-call budget, so each tool
// gets a pool of warm isolates holding one context each, prepared once: the prelude tames and freezes the
// realm, the tool's function is declared and frozen, and then the global object is frozen too. A frozen
// realm whose only user code is one function declaration keeps nothing from one call to the next, so
// reusing the context is as clean as a fresh one. Each isolate runs one call at a time, which keeps one
// call's deadline, memory limit and console apart from every other's.
import { readFileSync } from "node:fs";
import ivm from "isolated-vm";
import { LRUCache } from "lru-cache";
import type { Capabilities } from "../catalog/index.ts";
import type { EgressPolicy } from "../egress/index.ts";
import { proxiedFetch, selectHtml } from "./capabilities.ts";
import { checkCode } from "./check.ts";
import { type ConsoleLine, SandboxError } from "./errors.ts";

const PRELUDE = readFileSync(new URL("../../sandbox/prelude.js", import.meta.url), "utf8");

export interface SandboxOptions {
  /** Memory limit per isolate, in MB (isolated-vm's minimum is 8). */
  memoryLimitMb?: number;
  /** Largest result, in characters of JSON. */
  maxOutputChars?: number;
  /** Deadline of a run that does not give one. */
  defaultTimeoutMs?: number;
  /** Tools whose warm isolates are kept; the least recently used beyond it are disposed. */
  maxWarmTools?: number;
  /** Where ctx.fetch may connect; without one, public addresses only. */
  egress?: EgressPolicy;
}

export interface SandboxRunRequest {
  code: string;
  name: string;
  args: unknown;
  capabilities?: Capabilities;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface SandboxRunResult {
  value: unknown;
  console: ConsoleLine[];
}

/** Preparing a context (prelude, tool declaration) is bounded by this, apart from the call's deadline. */
const SETUP_TIMEOUT_MS = 2_000;
/** Idle warm isolates kept per tool: enough for the calls two cores run at once. */
const WARM_PER_TOOL = 2;

interface Reply {
  ok: boolean;
  value?: unknown;
  console: ConsoleLine[];
  error?: { stage: "runtime" | "output"; name: string; message: string; line?: number; column?: number };
}

/** An isolate whose context has run the prelude (realm tamed and frozen), not yet bound to a tool. */
interface BlankIsolate {
  isolate: ivm.Isolate;
  context: ivm.Context;
  connect: ivm.Reference<unknown>;
}

async function createBlankIsolate(memoryLimitMb: number): Promise<BlankIsolate> {
  const isolate = new ivm.Isolate({
    memoryLimit: memoryLimitMb,
    onCatastrophicError: (message) => {
      process.stderr.write(`switchboard sandbox: isolate lost (${message})\n`);
    },
  });
  try {
    const context = await isolate.createContext();
    const connect = await context.evalClosure(`"use strict";\n${PRELUDE}\nreturn prelude();`, [], {
      result: { reference: true },
      timeout: SETUP_TIMEOUT_MS,
      filename: "sandbox:prelude",
    });
    return { isolate, context, connect };
  } catch (error) {
    isolate.dispose();
    throw error;
  }
}

/**
 * Tool code is compiled in strict mode (undeclared assignments throw, `this` is undefined). The directive
 * is put on the first line so that line numbers stay those of the author's code; columns on line 1 are
 * shifted back by `STRICT_PREFIX.length`.
 */
const STRICT_PREFIX = '"use strict"; ';

/** Positions in V8 messages ("tool:name:3:9") → line and column in the author's code. */
function positionIn(text: string, name: string): { line?: number; column?: number } {
  const match = new RegExp(`tool:${name.replaceAll("$", "\\$")}:(\\d+):(\\d+)`).exec(text);
  if (match === null) return {};
  const line = Number(match[1]);
  const column = Number(match[2]);
  return { line, column: line === 1 ? Math.max(1, column - STRICT_PREFIX.length) : column };
}

/** One isolate with one prepared context for one tool; runs one call at a time. */
class WarmIsolate {
  readonly isolate: ivm.Isolate;
  private readonly invoke: ivm.Reference<(argsJson: string) => Promise<string>>;
  /** The running call's signal, for the capabilities it calls. */
  private callSignal: AbortSignal = AbortSignal.abort();
  /** Why the host disposed the isolate, when it did. */
  killedFor: "timeout" | "cancelled" | "closed" | undefined;

  private constructor(isolate: ivm.Isolate, invoke: ivm.Reference<(argsJson: string) => Promise<string>>) {
    this.isolate = isolate;
    this.invoke = invoke;
  }

  /** Binds a blank isolate to one tool: grants its capabilities, declares its function, freezes the rest. */
  static async bind(
    blank: BlankIsolate,
    request: { code: string; name: string },
    capabilities: Capabilities,
    maxOutputChars: number,
    egress: EgressPolicy | undefined,
  ): Promise<WarmIsolate> {
    const { isolate, context, connect } = blank;
    let warm: WarmIsolate | undefined;
    let settle: ivm.Reference<unknown> | undefined;
    const fetchGrant = capabilities.fetch;
    // Fire-and-forget from the isolate's side; the answer goes back through settle(id, ok, payload).
    const hostFetch =
      fetchGrant === undefined
        ? undefined
        : new ivm.Callback(
            (id: number, json: string) => {
              proxiedFetch(fetchGrant, json, warm?.callSignal ?? AbortSignal.abort(), egress)
                .then(
                  (reply) => [true, reply] as const,
                  (error: Error) => [false, error.message] as const,
                )
                .then(([ok, payload]) =>
                  settle?.apply(undefined, [id, ok, payload], { arguments: { copy: true } }),
                )
                .catch(() => {}); // the isolate was disposed meanwhile: nobody is waiting
            },
            { ignored: true },
          );
    const hostHtml = capabilities.html ? new ivm.Callback(selectHtml) : undefined;
    const bound = (await connect.apply(undefined, [hostFetch, hostHtml, maxOutputChars], {
      result: { reference: true },
      timeout: SETUP_TIMEOUT_MS,
    })) as ivm.Reference<{ setup: unknown; settle: unknown }>;
    connect.release();
    const setup = await bound.get("setup", { reference: true });
    settle = await bound.get("settle", { reference: true });
    bound.release();
    let script: ivm.Script;
    try {
      script = await isolate.compileScript(`${STRICT_PREFIX}${request.code}`, {
        filename: `tool:${request.name}`,
      });
    } catch (error) {
      const message = (error as Error).message;
      throw new SandboxError(
        "compile",
        `the code does not compile: ${message}`,
        positionIn(String((error as Error).stack), request.name),
      );
    }
    await script.run(context, { timeout: SETUP_TIMEOUT_MS, release: true });
    const invoke = (await setup.apply(undefined, [request.name], {
      result: { reference: true },
      timeout: SETUP_TIMEOUT_MS,
    })) as ivm.Reference<(argsJson: string) => Promise<string>>;
    setup.release();
    warm = new WarmIsolate(isolate, invoke);
    return warm;
  }

  async call(argsJson: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Reply> {
    const controller = new AbortController();
    this.callSignal = controller.signal;
    const kill = (reason: "timeout" | "cancelled") => {
      this.killedFor ??= reason;
      controller.abort();
      if (!this.isolate.isDisposed) this.isolate.dispose();
    };
    const timer = setTimeout(() => kill("timeout"), timeoutMs);
    const onAbort = () => kill("cancelled");
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const json = await this.invoke.apply(undefined, [argsJson], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: timeoutMs,
      });
      return JSON.parse(json as string) as Reply;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      controller.abort();
    }
  }

  dispose(reason: "closed" | undefined = undefined) {
    if (reason) this.killedFor ??= reason;
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }
}

export class Sandbox {
  private readonly memoryLimitMb: number;
  private readonly maxOutputChars: number;
  private readonly defaultTimeoutMs: number;
  private readonly egress: EgressPolicy | undefined;
  private readonly warmTools: LRUCache<string, WarmIsolate[]>;
  private readonly running = new Set<WarmIsolate>();
  /** A blank isolate made ahead of time, so that a new tool does not wait for the prelude (~4 ms). */
  private spare: Promise<BlankIsolate> | undefined;
  private closed = false;

  constructor(options: SandboxOptions = {}) {
    this.memoryLimitMb = options.memoryLimitMb ?? 64;
    this.maxOutputChars = options.maxOutputChars ?? 2_000_000;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 5_000;
    this.egress = options.egress;
    this.warmTools = new LRUCache({
      max: options.maxWarmTools ?? 64,
      dispose: (isolates) => {
        for (const isolate of isolates) isolate.dispose();
      },
    });
  }

  /** Runs the tool `name` defined by `code` with copied JSON `args`; throws SandboxError on any failure. */
  async run(request: SandboxRunRequest): Promise<SandboxRunResult> {
    if (this.closed) throw new SandboxError("closed", "the sandbox is closed");
    const timeoutMs = request.timeoutMs ?? this.defaultTimeoutMs;
    let argsJson: string;
    try {
      argsJson = JSON.stringify(request.args ?? {});
    } catch (error) {
      throw new SandboxError("input", `the arguments are not JSON: ${(error as Error).message}`);
    }
    if (request.signal?.aborted)
      throw new SandboxError("cancelled", "the run was cancelled before it started");
    const capabilities = request.capabilities ?? {};
    const key = keyOf(request.name, request.code, capabilities);
    const isolate = this.warmTools.get(key)?.pop() ?? (await this.bind(request, capabilities));
    if (request.signal?.aborted) {
      this.release(key, isolate);
      throw new SandboxError("cancelled", "the run was cancelled before it started");
    }
    this.running.add(isolate);
    let reply: Reply;
    try {
      reply = await isolate.call(argsJson, timeoutMs, request.signal);
    } catch (error) {
      isolate.dispose();
      throw this.explain(error, isolate, timeoutMs);
    } finally {
      this.running.delete(isolate);
    }
    this.release(key, isolate);
    this.refillSpare();
    if (reply.ok) return { value: reply.value, console: reply.console };
    const failure = reply.error ?? { stage: "runtime", name: "Error", message: "unknown failure" };
    const message = failure.stage === "output" ? failure.message : `${failure.name}: ${failure.message}`;
    const position =
      failure.line === undefined
        ? {}
        : positionIn(`tool:${request.name}:${failure.line}:${failure.column}`, request.name);
    throw new SandboxError(failure.stage, message, { ...position, console: reply.console });
  }

  /**
   * Checks and compiles a tool and keeps it warm, without running it: what synthesis does before the
   * test run. Throws SandboxError with kind "static" or "compile".
   */
  async warm(request: { code: string; name: string; capabilities?: Capabilities }): Promise<void> {
    if (this.closed) throw new SandboxError("closed", "the sandbox is closed");
    const capabilities = request.capabilities ?? {};
    const key = keyOf(request.name, request.code, capabilities);
    if ((this.warmTools.get(key)?.length ?? 0) > 0) return;
    this.release(key, await this.bind(request, capabilities));
  }

  /** Disposes every isolate; runs in progress fail with kind "closed". */
  close(): void {
    this.closed = true;
    for (const isolate of this.running) isolate.dispose("closed");
    this.warmTools.clear();
    this.spare?.then((blank) => blank.isolate.dispose()).catch(() => {});
    this.spare = undefined;
  }

  private async bind(
    request: { code: string; name: string },
    capabilities: Capabilities,
  ): Promise<WarmIsolate> {
    const violations = checkCode(request.code, request.name);
    if (violations.length > 0)
      throw new SandboxError(
        "static",
        violations.map((v) => `${v.line}:${v.column} ${v.message}`).join("\n"),
        {
          line: violations[0]?.line,
          column: violations[0]?.column,
          violations,
        },
      );
    const blank = await this.takeSpare();
    try {
      return await WarmIsolate.bind(blank, request, capabilities, this.maxOutputChars, this.egress);
    } catch (error) {
      blank.isolate.dispose();
      if (error instanceof SandboxError) throw error;
      throw new SandboxError("compile", `the tool could not be prepared: ${(error as Error).message}`);
    }
  }

  /** The spare blank isolate, or a new one if none is ready. */
  private takeSpare(): Promise<BlankIsolate> {
    const taken = this.spare ?? createBlankIsolate(this.memoryLimitMb);
    this.spare = undefined;
    return taken;
  }

  /**
   * Starts making the next spare once the current call has answered: creating an isolate blocks the event
   * loop for a few milliseconds, which must not land inside the synthesis that consumed the last one.
   */
  private refillSpare(): void {
    if (this.spare !== undefined || this.closed) return;
    setImmediate(() => {
      if (this.spare !== undefined || this.closed) return;
      const spare = createBlankIsolate(this.memoryLimitMb);
      this.spare = spare;
      spare.catch(() => {
        if (this.spare === spare) this.spare = undefined;
      });
    });
  }

  private release(key: string, isolate: WarmIsolate) {
    if (this.closed || isolate.isolate.isDisposed) return isolate.dispose();
    const idle = this.warmTools.get(key);
    if (idle === undefined) this.warmTools.set(key, [isolate]);
    else if (idle.length < WARM_PER_TOOL) idle.push(isolate);
    else isolate.dispose();
  }

  private explain(error: unknown, isolate: WarmIsolate, timeoutMs: number): SandboxError {
    const message = (error as Error)?.message ?? String(error);
    if (isolate.killedFor === "timeout" || /timed out/i.test(message))
      return new SandboxError("timeout", `the tool did not finish within ${timeoutMs} ms; it was stopped`);
    if (isolate.killedFor === "cancelled") return new SandboxError("cancelled", "the run was cancelled");
    if (isolate.killedFor === "closed")
      return new SandboxError("closed", "the sandbox was closed during the run");
    if (/memory limit/i.test(message))
      return new SandboxError(
        "memory",
        `the tool exceeded the ${this.memoryLimitMb} MB memory limit; it was stopped`,
      );
    return new SandboxError("runtime", message);
  }
}

function keyOf(name: string, code: string, capabilities: Capabilities): string {
  return `${name}\u0000${JSON.stringify(capabilities)}\u0000${code}`;
}
