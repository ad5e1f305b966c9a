// The isolates of one sandbox host: spare isolates made ahead of time, and warm isolates per tool.
//
// Warm path: a fresh context costs more than the warm-call budget, so each tool gets up to
// WARM_PER_TOOL warm isolates holding one context each, prepared once: the prelude tames and freezes the
// realm, the tool's function is declared and frozen, and then the global object is frozen too. A frozen
// realm whose only user code is one function declaration keeps nothing from one call to the next, so
// reusing the context is as clean as a fresh one. Each isolate runs one call at a time, which keeps one
// call's memory limit and console apart from every other's.
//
// Cold path: making an isolate and locking its realm down costs milliseconds of CPU, so the host keeps SPARES
// prelude-ready isolates and makes the next one as soon as one is taken.
import { readFileSync } from "node:fs";
import ivm from "isolated-vm";
import { authorColumn, STRICT_PREFIX } from "./strict.ts";

const PRELUDE = readFileSync(new URL("../../../sandbox/prelude.js", import.meta.url), "utf8");

/** Running the tool's top level (one function declaration) is bounded by this, apart from the call's deadline. */
const DECLARE_TIMEOUT_MS = 2_000;
/**
 * The prelude's own steps (taming the realm, binding a tool) are bounded only so that a fault in them
 * cannot hold a thread for ever: isolated-vm's timeouts are wall time, and on a busy machine these steps
 * take many times what they take on a quiet one. The parent's deadline answers the caller meanwhile.
 */
const PRELUDE_TIMEOUT_MS = 30_000;
/** Idle warm isolates kept per tool: enough for the calls two cores run at once. */
const WARM_PER_TOOL = 2;
/** Prelude-ready isolates kept for tools not seen yet. */
const SPARES = 2;

/** A failure the host reports with its kind; anything else thrown is a runtime failure. */
export class RunFailure extends Error {
  readonly kind: "compile" | "runtime" | "memory" | "timeout" | "cancelled";
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(kind: RunFailure["kind"], message: string, position: { line?: number; column?: number } = {}) {
    super(message);
    this.kind = kind;
    this.line = position.line;
    this.column = position.column;
  }
}

/** Positions in V8 messages ("tool:name:3:9") → line and column in the author's code. */
function positionIn(text: string, name: string): { line?: number; column?: number } {
  const match = new RegExp(`tool:${name.replaceAll("$", "\\$")}:(\\d+):(\\d+)`).exec(text);
  if (match === null) return {};
  const line = Number(match[1]);
  const column = Number(match[2]);
  return { line, column: authorColumn(line, column) };
}

/** An isolate whose context has run the prelude (realm tamed and frozen), not yet bound to a tool. */
interface BlankIsolate {
  isolate: ivm.Isolate;
  context: ivm.Context;
  connect: ivm.Reference<unknown>;
}

/** Sends a capability request of the running call to the parent. */
export type RequestSender = (req: number, capability: string, json: string) => void;

/** One isolate with one prepared context for one tool; runs one call at a time. */
export class WarmIsolate {
  readonly isolate: ivm.Isolate;
  private readonly invoke: ivm.Reference<(argsJson: string, contextJson?: string) => Promise<string>>;
  private readonly settle: ivm.Reference<unknown>;
  /** Where the running call's capability requests go; nowhere between calls. */
  sender: RequestSender | undefined;
  /** Why the isolate was disposed during a call, when it was. */
  stoppedFor: "timeout" | "cancelled" | undefined;

  private constructor(
    isolate: ivm.Isolate,
    invoke: ivm.Reference<(argsJson: string, contextJson?: string) => Promise<string>>,
    settle: ivm.Reference<unknown>,
  ) {
    this.isolate = isolate;
    this.invoke = invoke;
    this.settle = settle;
  }

  /** Binds a blank isolate to one tool: grants its capabilities, declares its function, freezes the rest. */
  static async bind(
    blank: BlankIsolate,
    tool: { name: string; code: string; granted: string[] },
    maxOutputChars: number,
  ): Promise<WarmIsolate> {
    const { isolate, context, connect } = blank;
    let warm: WarmIsolate | undefined;
    // Fire-and-forget from the isolate's side; the answer comes back through settle(id, ok, payload).
    const hostRequest = new ivm.Callback(
      (req: number, capability: string, json: string) => warm?.sender?.(req, capability, json),
      { ignored: true },
    );
    const bound = (await connect.apply(undefined, [hostRequest, tool.granted, maxOutputChars], {
      arguments: { copy: true },
      result: { reference: true },
      timeout: PRELUDE_TIMEOUT_MS,
    })) as ivm.Reference<{ setup: unknown; settle: unknown }>;
    connect.release();
    const setup = await bound.get("setup", { reference: true });
    const settle = await bound.get("settle", { reference: true });
    bound.release();
    let script: ivm.Script;
    try {
      script = await isolate.compileScript(`${STRICT_PREFIX}${tool.code}`, { filename: `tool:${tool.name}` });
    } catch (error) {
      throw new RunFailure(
        "compile",
        `the code does not compile: ${(error as Error).message}`,
        positionIn(String((error as Error).stack), tool.name),
      );
    }
    try {
      await script.run(context, { timeout: DECLARE_TIMEOUT_MS, release: true });
    } catch (error) {
      const message = (error as Error).message;
      if (/timed out/i.test(message))
        throw new RunFailure("timeout", `declaring the tool took over ${DECLARE_TIMEOUT_MS} ms`);
      throw error;
    }
    const invoke = (await setup.apply(undefined, [tool.name], {
      result: { reference: true },
      timeout: PRELUDE_TIMEOUT_MS,
    })) as ivm.Reference<(argsJson: string, contextJson?: string) => Promise<string>>;
    setup.release();
    warm = new WarmIsolate(isolate, invoke, settle);
    return warm;
  }

  /** Runs one call; resolves with the prelude's reply (JSON text). */
  async call(
    argsJson: string,
    contextJson: string | undefined,
    timeoutMs: number,
    sender: RequestSender,
  ): Promise<string> {
    this.sender = sender;
    try {
      return (await this.invoke.apply(undefined, [argsJson, contextJson], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: timeoutMs,
      })) as string;
    } finally {
      this.sender = undefined;
    }
  }

  /** Answers a capability request of the running call. */
  answer(req: number, ok: boolean, payload: string): void {
    if (this.isolate.isDisposed) return;
    this.settle.apply(undefined, [req, ok, payload], { arguments: { copy: true } }).catch(() => {});
  }

  stop(reason: "timeout" | "cancelled"): void {
    this.stoppedFor ??= reason;
    this.dispose();
  }

  dispose(): void {
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }
}

export interface IsolatePoolOptions {
  memoryLimitMb: number;
  maxOutputChars: number;
  maxWarmTools: number;
  /** Called when isolated-vm reports that an isolate is beyond recovery: the host must stop. */
  onCatastrophicError: (message: string) => void;
}

export class IsolatePool {
  private readonly options: IsolatePoolOptions;
  /**
   * Idle warm isolates per tool id, least recently used first (a Map keeps insertion order; a tool is
   * re-inserted when used). A Map rather than lru-cache because the host may read almost no files.
   */
  private readonly warm = new Map<number, WarmIsolate[]>();
  private readonly spares: Promise<BlankIsolate>[] = [];
  private refilling = false;

  constructor(options: IsolatePoolOptions) {
    this.options = options;
    this.refill();
  }

  /** A warm isolate for the tool: an idle one, or a spare bound to it now. */
  async take(tool: { id: number; name: string; code: string; granted: string[] }): Promise<WarmIsolate> {
    const idle = this.warm.get(tool.id)?.pop();
    if (idle !== undefined) return idle;
    const blank = await this.takeSpare();
    try {
      return await WarmIsolate.bind(blank, tool, this.options.maxOutputChars);
    } catch (error) {
      blank.isolate.dispose();
      if (error instanceof RunFailure) throw error;
      throw new RunFailure("compile", `the tool could not be prepared: ${(error as Error).message}`);
    }
  }

  /** Keeps an isolate that ended its call cleanly for the tool's next call. */
  release(toolId: number, isolate: WarmIsolate) {
    if (isolate.isolate.isDisposed || isolate.stoppedFor !== undefined) return isolate.dispose();
    const idle = this.warm.get(toolId) ?? [];
    this.warm.delete(toolId);
    this.warm.set(toolId, idle);
    if (idle.length < WARM_PER_TOOL) idle.push(isolate);
    else isolate.dispose();
    for (const [id, isolates] of this.warm) {
      if (this.warm.size <= this.options.maxWarmTools) break;
      this.warm.delete(id);
      for (const extra of isolates) extra.dispose();
    }
  }

  private takeSpare(): Promise<BlankIsolate> {
    const spare = this.spares.shift() ?? this.createBlank();
    this.refill();
    return spare;
  }

  /** Makes spares one at a time, after the current turn, so that a call being answered goes first. */
  private refill(): void {
    if (this.refilling || this.spares.length >= SPARES) return;
    this.refilling = true;
    setImmediate(() => {
      const spare = this.createBlank();
      this.spares.push(spare);
      spare.then(
        () => {
          this.refilling = false;
          this.refill();
        },
        () => {
          // Not retried at once (the next take tries again): a host that cannot make isolates must not spin.
          this.refilling = false;
          const at = this.spares.indexOf(spare);
          if (at >= 0) this.spares.splice(at, 1);
        },
      );
    });
  }

  private async createBlank(): Promise<BlankIsolate> {
    const isolate = new ivm.Isolate({
      memoryLimit: this.options.memoryLimitMb,
      onCatastrophicError: this.options.onCatastrophicError,
    });
    try {
      const context = await isolate.createContext();
      const connect = await context.evalClosure(`"use strict";\n${PRELUDE}\nreturn prelude();`, [], {
        result: { reference: true },
        timeout: PRELUDE_TIMEOUT_MS,
        filename: "sandbox:prelude",
      });
      return { isolate, context, connect };
    } catch (error) {
      isolate.dispose();
      throw error;
    }
  }
}
