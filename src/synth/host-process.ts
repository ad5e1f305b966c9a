// The parent's handle on one sandbox host process: starts it under Node's permission model, validates
// every message it sends, performs its capability requests, stops runs and kills the host when a run does
// not stop, when it goes over its memory ceiling or when it sends anything malformed.
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { setPriority } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Capabilities } from "../catalog/index.ts";
import { moduleFile } from "../config/index.ts";
import type { CapabilityRequests } from "./capability-requests.ts";
import type { UpstreamFault } from "./errors.ts";
import type { Channel } from "./host/channel.ts";
import type { HostLauncher, Launch } from "./host-launcher.ts";
import { type HostConfig, type HostMessage, hostMessageSchema, type ParentMessage } from "./protocol.ts";

const HOST_ENTRY = fileURLToPath(moduleFile("./host/main.ts", import.meta.url));
/** How long a run may take to stop after being asked before its whole host is killed. */
export const STOP_GRACE_MS = 250;
/** A host not ready this long after its launch is killed (and counts as a failed start). */
export const HOST_START_TIMEOUT_MS = 15_000;
/** The last words of a host's stderr kept for the message of a crash. */
const STDERR_TAIL_CHARS = 2_000;

const hostArgs = new Map<string, string[]>();

/**
 * Node's permission model for the host: it may read only its own code, the prelude and isolated-vm's
 * addon (node-gyp-build probes /etc/alpine-release to choose it), load that addon, and nothing else: no
 * writes, no child processes, no workers. Paths are resolved, not loaded: the parent never loads
 * isolated-vm. What the model does not cover is in sandbox/README.md.
 */
function hostArguments(entry: string): string[] {
  const known = hostArgs.get(entry);
  if (known !== undefined) return known;
  const isolatedVm = fileURLToPath(import.meta.resolve("isolated-vm"));
  const nodeGypBuild = createRequire(isolatedVm).resolve("node-gyp-build");
  const readable = [
    `${dirname(HOST_ENTRY)}/`,
    `${dirname(entry)}/`,
    fileURLToPath(new URL("../../sandbox/prelude.js", import.meta.url)),
    `${dirname(isolatedVm)}/`,
    `${dirname(nodeGypBuild)}/`,
    "/etc/alpine-release",
  ];
  const args = [
    "--permission",
    "--allow-addons",
    "--disable-warning=SecurityWarning",
    ...[...new Set(readable)].map((path) => `--allow-fs-read=${path}`),
    entry,
  ];
  hostArgs.set(entry, args);
  return args;
}

/**
 * Hosts run at a lower CPU priority than this process once they are ready: a flood of hostile busy loops
 * must not starve the service's event loop of CPU. Not before: on a busy machine a host started at low
 * priority takes seconds to boot. Linux sets a priority per thread, so every thread of the host is set
 * (threads it makes later inherit it); elsewhere this does nothing.
 */
const HOST_NICE = 10;

async function lowerPriority(pid: number): Promise<void> {
  let threads: string[];
  try {
    threads = await readdir(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const thread of threads) {
    try {
      setPriority(Number(thread), HOST_NICE);
    } catch {} // the thread ended meanwhile
  }
}

/** The environment a host starts with: nothing secret, only what Intl and dates read. */
function hostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["TZ", "LANG", "LC_ALL"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** A call as a host sees it from the parent: where its answer goes and what it was granted. */
export interface HostedCall {
  id: number;
  capabilities: Capabilities;
  /** Aborted when the call is answered: ends its capability requests. */
  signal: AbortSignal;
  /** The host's answer (result, prepared or failed). */
  answer(message: Extract<HostMessage, { t: "result" | "prepared" | "failed" }>): void;
  /** The host died before answering. */
  lost(reason: string): void;
  /** The last failure of an upstream the tool reached through a capability during this run. */
  upstreamFault?: UpstreamFault;
}

export interface HostOptions {
  config: HostConfig;
  /** The host program; the real one unless a test substitutes a stand-in. */
  entry: string | undefined;
  launcher: HostLauncher;
  requests: CapabilityRequests;
  onReady(host: SandboxHost): void;
  /** The host is gone; its calls were lost with it. */
  onExit(host: SandboxHost, reason: string, wasReady: boolean): void;
  /** A run ended (answered or lost): a slot is free. */
  onSlotFree(host: SandboxHost): void;
}

export class SandboxHost {
  readonly calls = new Map<number, HostedCall>();
  ready = false;
  dead = false;
  private readonly launch: Launch;
  private channel: Channel | undefined;
  private socket: Socket | undefined;
  private readonly options: HostOptions;
  private readonly validate: ReturnType<typeof hostMessageSchema>;
  private killedFor: string | undefined;
  private stderrTail = "";
  private readonly graceTimers = new Map<number, NodeJS.Timeout>();
  private readonly startTimer: NodeJS.Timeout;

  constructor(options: HostOptions) {
    this.options = options;
    this.startTimer = setTimeout(
      () => this.kill(`it did not start within ${HOST_START_TIMEOUT_MS} ms`),
      HOST_START_TIMEOUT_MS,
    );
    this.startTimer.unref();
    const { config } = options;
    // A message carries at most a reply or a request body; JSON escaping may double a character and
    // UTF-8 triple it, so the character cap is the byte limit over six.
    this.validate = hostMessageSchema(Math.floor(config.maxMessageBytes / 6));
    this.launch = options.launcher.launch(
      [...hostArguments(options.entry ?? HOST_ENTRY), JSON.stringify(config)],
      hostEnv(),
      {
        connected: (socket, channel) => {
          if (this.dead) return socket.destroy();
          this.socket = socket;
          this.channel = channel;
          // The channel closes the moment the process dies: its calls are answered now, not after the reaping.
          socket.on("close", () => {
            this.kill("it ended unexpectedly (its channel closed)");
            this.exited(null, null, undefined);
          });
          channel.receive = (message) => this.receive(message);
          channel.broken = (reason) => this.kill(`it sent a malformed message (${reason})`);
        },
        stderr: (text) => {
          this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
        },
        exited: (code, signal, error) => this.exited(code, signal, error),
      },
    );
  }

  get pid(): number | undefined {
    return this.launch.pid;
  }

  /** Runs asked to stop that have not yet: the host may be killed within STOP_GRACE_MS. */
  get stopping(): number {
    return this.graceTimers.size;
  }

  /** Starts a run (or, without args, a preparation) of `call` on this host. */
  start(call: HostedCall, message: Extract<ParentMessage, { t: "run" }>): void {
    this.calls.set(call.id, call);
    this.channel?.send(message);
  }

  /** Asks the host to end a run now; kills the host if the run has not ended after the grace. */
  stop(callId: number, reason: "timeout" | "cancelled"): void {
    if (this.dead || !this.calls.has(callId) || this.graceTimers.has(callId)) return;
    this.channel?.send({ t: "stop", call: callId, reason } satisfies ParentMessage);
    this.graceTimers.set(
      callId,
      setTimeout(() => {
        if (this.calls.has(callId)) this.kill(`a run did not stop within ${STOP_GRACE_MS} ms of being asked`);
      }, STOP_GRACE_MS),
    );
  }

  /** Kills the host (SIGKILL: a stuck native call ignores everything else). */
  kill(reason: string): void {
    if (this.dead) return;
    this.killedFor ??= reason;
    this.launch.kill();
  }

  /** The host's resident memory in MB, from /proc (Linux); undefined when it cannot be read. */
  async residentMb(): Promise<number | undefined> {
    const pid = this.launch.pid;
    if (pid === undefined || this.dead) return undefined;
    try {
      const status = await readFile(`/proc/${pid}/status`, "utf8");
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) / 1024;
    } catch {
      return undefined;
    }
  }

  private receive(raw: unknown) {
    if (this.dead) return;
    const parsed = this.validate.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.kill(`it sent a malformed message (${issue?.path.join(".")}: ${issue?.message})`);
    }
    const message = parsed.data;
    if (message.t === "dying") {
      this.killedFor ??= message.reason;
      return;
    }
    if (message.t === "ready") {
      if (this.ready) return this.kill("it sent a malformed message (ready twice)");
      this.ready = true;
      clearTimeout(this.startTimer);
      if (this.pid !== undefined) void lowerPriority(this.pid);
      return this.options.onReady(this);
    }
    const call = this.calls.get(message.call);
    if (call === undefined) return this.kill(`it sent a malformed message (unknown call ${message.call})`);
    if (message.t === "request") return this.request(call, message);
    this.calls.delete(message.call);
    clearTimeout(this.graceTimers.get(message.call));
    this.graceTimers.delete(message.call);
    call.answer(message);
    this.options.onSlotFree(this);
  }

  private request(call: HostedCall, message: Extract<HostMessage, { t: "request" }>) {
    const { requests } = this.options;
    // The prelude only exposes granted capabilities: asking for another one means the host is not ours.
    if (!requests.isGranted(call.capabilities, message.capability))
      return this.kill(`it asked for capability "${message.capability}", which the tool was not granted`);
    const reply = (ok: boolean, payload: string) => {
      if (!this.dead && this.calls.get(call.id) === call)
        this.channel?.send({
          t: "reply",
          call: call.id,
          req: message.req,
          ok,
          payload,
        } satisfies ParentMessage);
    };
    const onFault = (fault: UpstreamFault) => {
      call.upstreamFault = fault;
    };
    requests.perform(call.capabilities, message.capability, message.json, call.signal, onFault).then(
      (payload) => reply(true, payload),
      (error: Error) => reply(false, error.message),
    );
  }

  private exited(code: number | null, signal: string | null, error: string | undefined): void {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.startTimer);
    this.socket?.destroy();
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    // Node prints an uncaught error's name and message first, then its stack and an object dump.
    const lines = this.stderrTail.split("\n").map((line) => line.trim());
    const lastWords =
      lines.findLast((line) => /^(\w*Error\b|switchboard sandbox host:)/.test(line)) ??
      lines.findLast((line) => line !== "" && !line.startsWith("Node.js v")) ??
      "";
    const how = `${error === undefined ? "exited" : `failed (${error})`} (${signal ?? `code ${code}`})`;
    const reason = this.killedFor ?? `it ${how}${lastWords === "" ? "" : `: ${lastWords.slice(0, 500)}`}`;
    const lost = [...this.calls.values()];
    this.calls.clear();
    for (const call of lost) call.lost(reason);
    this.options.onExit(this, reason, this.ready);
  }
}
