// Runs tool code in isolated-vm isolates held by a pool of sandbox host processes (src/synth/host/).
//
// Untrusted code runs in child processes because only killing a process is certain: a single long native
// call (a giant allocation, join or sort over hundreds of MiB) ignores isolated-vm's timeout and disposal,
// and isolated-vm's documentation says a process must stop serving after `onCatastrophicError`. This
// process never loads isolated-vm. It owns every deadline: at the deadline the caller is answered and
// the host is asked to stop the run; a run still going STOP_GRACE_MS later gets its whole host killed.
// It watches each host's resident memory, replaces a host that dies for any reason (its calls are
// answered "crashed" at once), performs the capability requests of running tools (capability-requests.ts)
// and validates every message a host sends (protocol.ts).
//
// Calls wait in one queue per tool, served round robin, so that a flood into one slow tool does not hold
// back the others; a call's deadline counts from `run`, queueing included, except while no host is ready
// (the pool starting, or every host being replaced): that wait is not the tool's. A tool sticks to the host
// that ran it last, where its warm isolates are.
import { availableParallelism } from "node:os";
import { LRUCache } from "lru-cache";
import type { Capabilities } from "../catalog/index.ts";
import { CapabilityRequests, grantedNames } from "./capability-requests.ts";
import { checkCode } from "./check.ts";
import { SandboxError } from "./errors.ts";
import { authorColumn } from "./host/strict.ts";
import { HostLauncher } from "./host-launcher.ts";
import { type HostedCall, SandboxHost } from "./host-process.ts";
import { type HostConfig, type HostMessage, replySchema, type ToolSpec } from "./protocol.ts";
import type {
  SandboxHostInfo,
  SandboxOptions,
  SandboxRunRequest,
  SandboxRunResult,
} from "./sandbox-options.ts";

export type { SandboxHostInfo, SandboxOptions, SandboxRunRequest, SandboxRunResult };

const MEMORY_WATCH_MS = 100;
/** Hosts that die before they are ready, in a row, after which queued calls are failed, not kept waiting. */
const MAX_START_FAILURES = 3;

interface ToolEntry {
  spec: ToolSpec;
  /** The host that ran the tool last (its warm isolates are there). */
  host: SandboxHost | undefined;
}

interface PendingCall extends HostedCall {
  entry: ToolEntry;
  args: string | undefined;
  context: string | undefined;
  timeoutMs: number;
  host: SandboxHost | undefined;
  settled: boolean;
  settle(outcome: SandboxRunResult | undefined | SandboxError): void;
}

export class Sandbox {
  private readonly memoryLimitMb: number;
  private readonly maxOutputChars: number;
  private readonly defaultTimeoutMs: number;
  private readonly hostCount: number;
  private readonly hostMemoryLimitMb: number;
  private readonly maxCallsPerHost: number;
  private readonly hostEntry: string | undefined;
  private readonly hostConfig: HostConfig;
  private readonly requests: CapabilityRequests;
  private readonly launcher: HostLauncher;
  /** Tools that passed the static check, with their short id. */
  private readonly tools = new LRUCache<string, ToolEntry>({ max: 1024 });
  private readonly hosts: SandboxHost[] = [];
  /** Calls not on a host yet, one queue per tool id, served round robin (a Map keeps insertion order). */
  private readonly queue = new Map<number, PendingCall[]>();
  private readonly memoryWatch: NodeJS.Timeout;
  private lastToolId = 0;
  private lastCallId = 0;
  private nextHost = 0;
  private startFailures = 0;
  private lastStartFailure = "";
  private closed = false;
  /** Milliseconds during which no host was ready, over the sandbox's life, up to `hostlessSince`. */
  private hostlessMs = 0;
  /** When the pool last had no ready host, while it has none (from the start until the first is ready). */
  private hostlessSince: number | undefined = performance.now();
  /** Who waits for a ready host (whenReady). */
  private readyWaiters: { resolve(): void; reject(error: Error): void }[] = [];

  constructor(options: SandboxOptions = {}) {
    this.memoryLimitMb = options.memoryLimitMb ?? 64;
    this.maxOutputChars = options.maxOutputChars ?? 2_000_000;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 5_000;
    this.hostCount = Math.max(1, options.hosts ?? availableParallelism());
    this.hostMemoryLimitMb = options.hostMemoryLimitMb ?? 512;
    this.maxCallsPerHost = Math.max(1, options.maxCallsPerHost ?? 8);
    this.hostEntry = options.hostEntry;
    this.requests = new CapabilityRequests(options.egress, options.browser);
    this.hostConfig = {
      memoryLimitMb: this.memoryLimitMb,
      maxOutputChars: this.maxOutputChars,
      maxWarmTools: options.maxWarmTools ?? 32,
      hostMemoryLimitMb: this.hostMemoryLimitMb,
      // A reply holds a result and a console, each capped at maxOutputChars characters of JSON; escaping
      // inside the message may double a character and UTF-8 triple it.
      maxMessageBytes: 6 * (2 * this.maxOutputChars + 65_536),
    };
    this.launcher = new HostLauncher(this.hostConfig.maxMessageBytes);
    this.fillPool();
    this.memoryWatch = setInterval(() => void this.watchMemory(), MEMORY_WATCH_MS);
    this.memoryWatch.unref();
  }

  /**
   * Resolves once a host is ready to take calls (at once if one is), so that a caller can keep a host's
   * start out of its own deadlines; rejects when hosts cannot start.
   */
  whenReady(): Promise<void> {
    if (this.closed) return Promise.reject(new SandboxError("closed", "the sandbox is closed"));
    if (this.hosts.some((host) => host.ready && !host.dead)) return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** Runs the tool `name` defined by `code` with copied JSON `args`; throws SandboxError on any failure. */
  async run(request: SandboxRunRequest): Promise<SandboxRunResult> {
    if (this.closed) throw new SandboxError("closed", "the sandbox is closed");
    const timeoutMs = request.timeoutMs ?? this.defaultTimeoutMs;
    let argsJson: string;
    let contextJson: string | undefined;
    try {
      argsJson = JSON.stringify(request.args ?? {});
      contextJson = request.context === undefined ? undefined : JSON.stringify(request.context);
    } catch (error) {
      throw new SandboxError("input", `the arguments are not JSON: ${(error as Error).message}`);
    }
    if (request.signal?.aborted)
      throw new SandboxError("cancelled", "the run was cancelled before it started");
    const entry = this.entryFor(request.name, request.code, request.capabilities ?? {});
    return (await this.submit(
      entry,
      request.capabilities ?? {},
      argsJson,
      timeoutMs,
      request.signal,
      contextJson,
    )) as SandboxRunResult;
  }

  /**
   * Checks and compiles a tool and keeps it warm, without running it: what synthesis does before the
   * test run. Throws SandboxError with kind "static" or "compile".
   */
  async warm(request: { code: string; name: string; capabilities?: Capabilities }): Promise<void> {
    if (this.closed) throw new SandboxError("closed", "the sandbox is closed");
    const entry = this.entryFor(request.name, request.code, request.capabilities ?? {});
    await this.submit(entry, request.capabilities ?? {}, undefined, this.defaultTimeoutMs, undefined);
  }

  /** Kills every host; calls waiting or running fail with kind "closed". */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.memoryWatch);
    const closedError = () => new SandboxError("closed", "the sandbox was closed during the run");
    for (const calls of this.queue.values()) for (const call of calls) call.settle(closedError());
    this.queue.clear();
    for (const waiter of this.readyWaiters.splice(0)) waiter.reject(closedError());
    for (const host of this.hosts) {
      for (const call of host.calls.values()) (call as PendingCall).settle(closedError());
      host.kill("the sandbox was closed");
    }
    this.launcher.close();
    this.requests.close();
  }

  /** The host processes, for operators and tests. */
  hostProcesses(): SandboxHostInfo[] {
    return this.hosts.map((host) => ({ pid: host.pid, ready: host.ready, calls: host.calls.size }));
  }

  private entryFor(name: string, code: string, capabilities: Capabilities): ToolEntry {
    const key = `${name}\u0000${JSON.stringify(capabilities)}\u0000${code}`;
    const known = this.tools.get(key);
    if (known !== undefined) return known;
    const violations = checkCode(code, name);
    if (violations.length > 0)
      throw new SandboxError(
        "static",
        violations.map((v) => `${v.line}:${v.column} ${v.message}`).join("\n"),
        { line: violations[0]?.line, column: violations[0]?.column, violations },
      );
    const entry: ToolEntry = {
      spec: { id: ++this.lastToolId, name, code, granted: grantedNames(capabilities) },
      host: undefined,
    };
    this.tools.set(key, entry);
    return entry;
  }

  private submit(
    entry: ToolEntry,
    capabilities: Capabilities,
    args: string | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    context?: string,
  ): Promise<SandboxRunResult | undefined> {
    this.fillPool();
    return new Promise((resolve, reject) => {
      // Made only when a capability request needs it: aborting a controller costs a DOMException.
      let controller: AbortController | undefined;
      const call: PendingCall = {
        id: ++this.lastCallId,
        entry,
        capabilities,
        args,
        context,
        timeoutMs,
        host: undefined,
        settled: false,
        get signal() {
          controller ??= new AbortController();
          if (call.settled) controller.abort();
          return controller.signal;
        },
        settle: (outcome) => {
          if (call.settled) return;
          call.settled = true;
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          controller?.abort();
          if (outcome instanceof SandboxError) reject(outcome);
          else resolve(outcome);
        },
        answer: (message) => this.answered(call, message),
        lost: (reason) =>
          call.settle(
            new SandboxError(
              "crashed",
              `the sandbox host running the tool stopped: ${reason}; a fresh host takes over`,
            ),
          ),
      };
      // Waiting while no host is ready (the pool starting, or every host being replaced) is not the
      // tool's time, so a call still queued at its deadline gets that time back; waiting behind other calls
      // is its time. A host that does not start is bounded by HOST_START_TIMEOUT_MS and MAX_START_FAILURES.
      let hostlessSeen = this.hostless();
      const expire = () => {
        const owed = this.hostless() - hostlessSeen;
        if (call.host === undefined && owed > 0) {
          hostlessSeen += owed;
          timer = setTimeout(expire, owed);
          return;
        }
        this.end(
          call,
          "timeout",
          new SandboxError("timeout", `the tool did not finish within ${timeoutMs} ms; it was stopped`),
        );
      };
      let timer = setTimeout(expire, timeoutMs);
      const onAbort = () =>
        this.end(call, "cancelled", new SandboxError("cancelled", "the run was cancelled"));
      signal?.addEventListener("abort", onAbort, { once: true });
      const waiting = this.queue.get(entry.spec.id);
      if (waiting === undefined) this.queue.set(entry.spec.id, [call]);
      else waiting.push(call);
      this.pump();
    });
  }

  /** The deadline passed or the caller cancelled: answer now, and stop the run if it is on a host. */
  private end(call: PendingCall, reason: "timeout" | "cancelled", error: SandboxError) {
    if (call.settled) return;
    call.settle(error);
    if (call.host !== undefined) return call.host.stop(call.id, reason);
    const waiting = this.queue.get(call.entry.spec.id);
    const at = waiting?.indexOf(call) ?? -1;
    if (waiting === undefined || at < 0) return;
    waiting.splice(at, 1);
    if (waiting.length === 0) this.queue.delete(call.entry.spec.id);
  }

  private answered(
    call: PendingCall,
    message: Extract<HostMessage, { t: "result" | "prepared" | "failed" }>,
  ) {
    if (call.settled) return;
    if (message.t === "prepared") return call.settle(undefined);
    if (message.t === "failed") return call.settle(this.failure(call, message));
    let reply: ReturnType<typeof replySchema.parse>;
    try {
      reply = replySchema.parse(JSON.parse(message.json));
    } catch {
      const reason = "it sent a malformed result";
      call.host?.kill(reason);
      return call.lost(reason);
    }
    if (reply.ok)
      return call.settle(
        reply.context === undefined
          ? { value: reply.value, console: reply.console }
          : { value: reply.value, console: reply.console, contextChanges: reply.context },
      );
    const { stage, name, message: text, line, column } = reply.error;
    const position =
      line === undefined || column === undefined ? {} : { line, column: authorColumn(line, column) };
    // A tool that fails after its upstream did carries that fault: the transport's word, not the tool's.
    const upstream = stage === "runtime" ? call.upstreamFault : undefined;
    call.settle(
      new SandboxError(stage, stage === "output" ? text : `${name}: ${text}`, {
        ...position,
        console: reply.console,
        ...(upstream === undefined ? {} : { upstream }),
      }),
    );
  }

  private failure(call: PendingCall, message: Extract<HostMessage, { t: "failed" }>): SandboxError {
    switch (message.kind) {
      case "timeout":
        return new SandboxError(
          "timeout",
          `the tool did not finish within ${call.timeoutMs} ms; it was stopped`,
        );
      case "cancelled":
        return new SandboxError("cancelled", "the run was cancelled");
      case "memory":
        return new SandboxError(
          "memory",
          `the tool exceeded the ${this.memoryLimitMb} MB memory limit; it was stopped`,
        );
      default: {
        const { line, column } = message;
        return new SandboxError(message.kind, message.message, {
          ...(line === undefined ? {} : { line }),
          ...(column === undefined ? {} : { column }),
        });
      }
    }
  }

  /** Moves waiting calls onto hosts with a free slot, one tool after another. */
  private pump(): void {
    while (!this.closed) {
      const first = this.queue.entries().next();
      if (first.done) return;
      const [toolId, calls] = first.value;
      const call = calls[0] as PendingCall;
      const host = this.pick(call.entry);
      if (host === undefined) return;
      calls.shift();
      this.queue.delete(toolId);
      if (calls.length > 0) this.queue.set(toolId, calls);
      call.host = host;
      call.entry.host = host;
      host.start(call, {
        t: "run",
        call: call.id,
        tool: call.entry.spec,
        timeoutMs: call.timeoutMs,
        ...(call.args === undefined ? {} : { args: call.args }),
        ...(call.context === undefined ? {} : { context: call.context }),
      });
    }
  }

  /**
   * The tool's last host if it has a free slot, else the least busy ready host (rotating on ties). A host
   * with a run that was asked to stop is skipped: it may be killed, with everything on it, any moment.
   */
  private pick(entry: ToolEntry): SandboxHost | undefined {
    const free = (host: SandboxHost | undefined): host is SandboxHost =>
      host?.ready === true && !host.dead && host.stopping === 0 && host.calls.size < this.maxCallsPerHost;
    if (free(entry.host)) return entry.host;
    let best: SandboxHost | undefined;
    for (let i = 0; i < this.hosts.length; i++) {
      const host = this.hosts[(this.nextHost + i) % this.hosts.length];
      if (free(host) && (best === undefined || host.calls.size < best.calls.size)) best = host;
    }
    this.nextHost = (this.nextHost + 1) % Math.max(1, this.hosts.length);
    return best;
  }

  /** How long the pool has had no ready host, in total, up to now. */
  private hostless(): number {
    const now = performance.now();
    return this.hostlessMs + (this.hostlessSince === undefined ? 0 : now - this.hostlessSince);
  }

  private fillPool(): void {
    while (!this.closed && this.hosts.length < this.hostCount) {
      const host: SandboxHost = new SandboxHost({
        config: this.hostConfig,
        entry: this.hostEntry,
        launcher: this.launcher,
        requests: this.requests,
        onReady: () => {
          this.startFailures = 0;
          if (this.hostlessSince !== undefined) {
            this.hostlessMs += performance.now() - this.hostlessSince;
            this.hostlessSince = undefined;
          }
          for (const waiter of this.readyWaiters.splice(0)) waiter.resolve();
          this.pump();
        },
        onSlotFree: () => this.pump(),
        onExit: (_host, reason, wasReady) => this.replace(host, reason, wasReady),
      });
      this.hosts.push(host);
    }
  }

  private replace(host: SandboxHost, reason: string, wasReady: boolean): void {
    const at = this.hosts.indexOf(host);
    if (at >= 0) this.hosts.splice(at, 1);
    if (this.closed) return;
    if (!this.hosts.some((other) => other.ready && !other.dead)) this.hostlessSince ??= performance.now();
    if (!wasReady) {
      this.startFailures += 1;
      this.lastStartFailure = reason;
    }
    if (this.startFailures >= MAX_START_FAILURES) {
      // Hosts cannot start (a broken install, no memory): fail what waits instead of retrying forever;
      // the next call tries again.
      const error = () =>
        new SandboxError("crashed", `no sandbox host could be started: ${this.lastStartFailure}`);
      for (const calls of this.queue.values()) for (const call of calls) call.settle(error());
      this.queue.clear();
      for (const waiter of this.readyWaiters.splice(0)) waiter.reject(error());
      this.startFailures = 0;
      return;
    }
    this.fillPool();
    this.pump();
  }

  private async watchMemory(): Promise<void> {
    for (const host of this.hosts) {
      const rssMb = await host.residentMb();
      if (rssMb !== undefined && rssMb > this.hostMemoryLimitMb)
        host.kill(`it went over its ${this.hostMemoryLimitMb} MB memory ceiling (${Math.round(rssMb)} MB)`);
    }
  }
}
