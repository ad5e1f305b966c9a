// The worker thread that starts sandbox hosts. child_process.spawn blocks its event loop until the child
// has exec'd (longer on a loaded machine or a large parent), so it is done here rather than
// on the main thread. Hosts connect back to the parent's socket themselves (host-launcher.ts); this
// thread only starts them, relays the tail of their stderr, kills them on request and reports their end.
import { type ChildProcess, spawn } from "node:child_process";
import { parentPort } from "node:worker_threads";

export type SpawnerRequest =
  | { t: "spawn"; id: number; args: string[]; env: Record<string, string> }
  | { t: "kill"; id: number };

export type SpawnerEvent =
  | { t: "pid"; id: number; pid: number }
  | { t: "stderr"; id: number; text: string }
  | { t: "exit"; id: number; code: number | null; signal: string | null; error?: string };

const children = new Map<number, ChildProcess>();
const post = (event: SpawnerEvent) => parentPort?.postMessage(event);

parentPort?.on("message", (request: SpawnerRequest) => {
  if (request.t === "kill") {
    children.get(request.id)?.kill("SIGKILL");
    return;
  }
  const { id } = request;
  const child = spawn(process.execPath, request.args, {
    stdio: ["ignore", "ignore", "pipe"],
    env: request.env,
  });
  children.set(id, child);
  if (child.pid !== undefined) post({ t: "pid", id, pid: child.pid });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => post({ t: "stderr", id, text: text.slice(-2_000) }));
  let failure: string | undefined;
  child.on("error", (error) => {
    failure = error.message;
    if (child.pid === undefined) {
      children.delete(id);
      post({ t: "exit", id, code: null, signal: null, error: failure });
    }
  });
  // "close", not "exit": the last stderr lines are relayed first.
  child.on("close", (code, signal) => {
    children.delete(id);
    post({ t: "exit", id, code, signal, ...(failure === undefined ? {} : { error: failure }) });
  });
});
