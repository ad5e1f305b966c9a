// A sandbox host: a child process that holds the isolates of many tools, and nothing else: the prelude,
// the isolate pool and this message loop. The parent (src/synth/sandbox.ts) starts it under Node's
// permission model; the host connects to the parent's socket and says hello with its one-time token. The
// parent owns every deadline, watches the host's memory and kills it when a run does not stop;
// capabilities are requests the parent checks and performs.
//
// The host ends itself (SIGKILL, so that no exit hook can wait on a stuck isolate thread) when the parent
// goes away, when its own resident memory passes the ceiling, and when isolated-vm reports that an isolate
// is beyond recovery, which its documentation says a process must never serve on after.
import { writeSync } from "node:fs";
import { connect } from "node:net";
import type { HostConfig, HostMessage, ParentMessage } from "../protocol.ts";
import { type Channel, openChannel } from "./channel.ts";
import { IsolatePool, RunFailure, type WarmIsolate } from "./isolates.ts";

const config = JSON.parse(process.argv[2] ?? "") as HostConfig;

function die(reason: string): void {
  try {
    // A socket write goes out at once when the kernel buffer has room, which it has between frames.
    channel?.send({ t: "dying", reason } satisfies HostMessage);
    writeSync(2, `switchboard sandbox host: ${reason}\n`);
  } finally {
    process.kill(process.pid, "SIGKILL");
  }
}

const MEMORY_CHECK_MS = 100;
setInterval(() => {
  const rssMb = process.memoryUsage.rss() / 1024 / 1024;
  if (rssMb > config.hostMemoryLimitMb)
    die(`over its ${config.hostMemoryLimitMb} MB memory ceiling (${Math.round(rssMb)} MB)`);
}, MEMORY_CHECK_MS).unref();

const pool = new IsolatePool({
  memoryLimitMb: config.memoryLimitMb,
  maxOutputChars: config.maxOutputChars,
  maxWarmTools: config.maxWarmTools,
  onCatastrophicError: (message) => die(`isolate lost (${message})`),
});

/**
 * Calls whose isolate is running, and calls still being prepared. A stop for a call being prepared is
 * answered at once: preparing runs the prelude and one function declaration, each bounded by the pool's
 * setup timeout, so the host is not stuck, and on a busy machine a preparation may outlast the parent's
 * stop grace, which would cost the whole host. The isolate, once ready, goes to the tool's warm ones.
 */
const running = new Map<number, WarmIsolate>();
const preparing = new Set<number>();

const { SWITCHBOARD_SANDBOX_SOCKET: socketPath = "", SWITCHBOARD_SANDBOX_TOKEN: token = "" } = process.env;
delete process.env.SWITCHBOARD_SANDBOX_TOKEN;
const socket = connect(socketPath);
socket.on("close", () => die("the parent closed the channel"));
socket.on("error", () => {}); // followed by "close"
const channel: Channel = openChannel(socket, config.maxMessageBytes);
channel.receive = onMessage;
channel.broken = (reason) => die(`bad message from the parent: ${reason}`);
const send = (message: HostMessage | { t: "hello"; token: string }) => channel.send(message);
send({ t: "hello", token });

function failed(call: number, error: unknown): HostMessage {
  const failure =
    error instanceof RunFailure
      ? error
      : new RunFailure("runtime", (error as Error)?.message ?? String(error));
  return {
    t: "failed",
    call,
    kind: failure.kind,
    message: failure.message.slice(0, config.maxOutputChars),
    ...(failure.line === undefined ? {} : { line: failure.line }),
    ...(failure.column === undefined ? {} : { column: failure.column }),
  };
}

/** What isolated-vm's rejection of a run means. */
function explain(error: unknown, isolate: WarmIsolate): RunFailure {
  const message = (error as Error)?.message ?? String(error);
  if (isolate.stoppedFor !== undefined) return new RunFailure(isolate.stoppedFor, "the run was stopped");
  if (/timed out/i.test(message)) return new RunFailure("timeout", message);
  if (/memory limit/i.test(message))
    return new RunFailure("memory", `the tool exceeded the ${config.memoryLimitMb} MB memory limit`);
  return new RunFailure("runtime", message);
}

async function run(message: Extract<ParentMessage, { t: "run" }>): Promise<void> {
  const { call, tool } = message;
  preparing.add(call);
  let isolate: WarmIsolate;
  try {
    isolate = await pool.take(tool);
  } catch (error) {
    if (preparing.delete(call)) send(failed(call, error));
    return;
  }
  if (!preparing.delete(call)) return pool.release(tool.id, isolate);
  if (message.args === undefined) {
    pool.release(tool.id, isolate);
    return send({ t: "prepared", call });
  }
  running.set(call, isolate);
  try {
    const json = await isolate.call(
      message.args,
      message.context,
      message.timeoutMs,
      (req, capability, request) => send({ t: "request", call, req, capability, json: request }),
    );
    send({ t: "result", call, json });
  } catch (error) {
    send(failed(call, explain(error, isolate)));
  } finally {
    running.delete(call);
    pool.release(tool.id, isolate);
  }
}

function onMessage(raw: unknown): void {
  const message = raw as ParentMessage;
  switch (message.t) {
    case "run":
      void run(message);
      return;
    case "stop":
      if (preparing.delete(message.call))
        send(failed(message.call, new RunFailure(message.reason, "the run was stopped")));
      running.get(message.call)?.stop(message.reason);
      return;
    case "reply":
      running.get(message.call)?.answer(message.req, message.ok, message.payload);
      return;
  }
}

send({ t: "ready" });
