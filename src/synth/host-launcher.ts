// Starts sandbox host processes without blocking the main event loop: a worker thread spawns them
// (spawner-thread.ts), and each host connects back to a Unix socket of this process in a private
// directory, proving who it is with a one-time token it was given in its environment.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { moduleFile } from "../config/index.ts";
import { type Channel, openChannel } from "./host/channel.ts";
import type { SpawnerEvent, SpawnerRequest } from "./spawner-thread.ts";

/** A host must say hello within this after connecting, in a frame of at most HELLO_BYTES. */
const HELLO_TIMEOUT_MS = 5_000;
const HELLO_BYTES = 256;

const helloSchema = z.strictObject({ t: z.literal("hello"), token: z.string().max(64) });

export interface LaunchHandlers {
  /** The host connected and proved who it is; the channel is its from now on. */
  connected(socket: Socket, channel: Channel): void;
  stderr(text: string): void;
  /** The process ended (or never started: `error`). */
  exited(code: number | null, signal: string | null, error: string | undefined): void;
}

export interface Launch {
  readonly pid: number | undefined;
  kill(): void;
}

/** SIGKILL; a process already gone (its exit event is on its way) is not an error. */
function killNow(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
}

interface Running {
  token: string;
  pid: number | undefined;
  handlers: LaunchHandlers;
  /** A kill asked for before the pid was known. */
  killWanted: boolean;
}

export class HostLauncher {
  private readonly dir = mkdtempSync(join(tmpdir(), "switchboard-sandbox-"));
  private readonly socketPath = join(this.dir, "hosts.sock");
  private readonly server: Server;
  private readonly listening: Promise<void>;
  private readonly worker: Worker;
  private readonly running = new Map<number, Running>();
  private readonly byToken = new Map<string, number>();
  private readonly maxMessageBytes: number;
  private lastId = 0;
  private closed = false;

  constructor(maxMessageBytes: number) {
    this.maxMessageBytes = maxMessageBytes;
    this.server = createServer((socket) => this.accept(socket));
    this.server.unref();
    this.listening = new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.socketPath, () => resolve());
    });
    this.listening.catch(() => {});
    this.worker = new Worker(moduleFile("./spawner-thread.ts", import.meta.url));
    this.worker.unref();
    this.worker.on("message", (event: SpawnerEvent) => this.event(event));
  }

  /** Starts `node <args>` with the socket's address and a fresh token in its environment. */
  launch(args: string[], env: Record<string, string>, handlers: LaunchHandlers): Launch {
    const id = ++this.lastId;
    const token = randomBytes(24).toString("base64url");
    const running: Running = { token, pid: undefined, handlers, killWanted: false };
    this.running.set(id, running);
    this.byToken.set(token, id);
    this.listening.then(
      () =>
        this.post({
          t: "spawn",
          id,
          args,
          env: { ...env, SWITCHBOARD_SANDBOX_SOCKET: this.socketPath, SWITCHBOARD_SANDBOX_TOKEN: token },
        }),
      (error: Error) => this.event({ t: "exit", id, code: null, signal: null, error: error.message }),
    );
    return {
      get pid() {
        return running.pid;
      },
      kill: () => {
        // Straight from here once the pid is known: the signal must not wait behind the worker's queue.
        if (running.pid !== undefined) killNow(running.pid);
        else {
          running.killWanted = true;
          this.post({ t: "kill", id });
        }
      },
    };
  }

  /** Kills every host; the worker and the socket go once the last one is reaped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, running] of this.running) {
      if (running.pid !== undefined) killNow(running.pid);
      else this.post({ t: "kill", id });
    }
    this.finishIfIdle();
  }

  private post(request: SpawnerRequest): void {
    this.worker.postMessage(request);
  }

  private event(event: SpawnerEvent): void {
    const running = this.running.get(event.id);
    if (running === undefined) return;
    if (event.t === "pid") {
      running.pid = event.pid;
      if (running.killWanted || this.closed) killNow(event.pid);
    } else if (event.t === "stderr") running.handlers.stderr(event.text);
    else {
      this.running.delete(event.id);
      this.byToken.delete(running.token);
      running.handlers.exited(event.code, event.signal, event.error);
      this.finishIfIdle();
    }
  }

  /** A connection must open with the hello of a host we started and that has not said it yet. */
  private accept(socket: Socket): void {
    socket.on("error", () => {});
    const channel = openChannel(socket, HELLO_BYTES);
    const timer = setTimeout(() => socket.destroy(), HELLO_TIMEOUT_MS);
    channel.broken = () => socket.destroy();
    channel.receive = (message) => {
      clearTimeout(timer);
      const hello = helloSchema.safeParse(message);
      const id = hello.success ? this.byToken.get(hello.data.token) : undefined;
      const running = id === undefined ? undefined : this.running.get(id);
      if (id === undefined || running === undefined || this.closed) {
        socket.destroy();
        return;
      }
      this.byToken.delete(running.token);
      channel.receive = () => {};
      channel.setLimit(this.maxMessageBytes);
      running.handlers.connected(socket, channel);
    };
  }

  private finishIfIdle(): void {
    if (!this.closed || this.running.size > 0) return;
    void this.worker.terminate();
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
