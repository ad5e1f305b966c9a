// Starts the real `switchboard serve` (or `mcp`) as a child process with a temporary data folder, on an
// ephemeral port, and hands tests its address. One service per test file keeps the suite quick.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = join(ROOT, "bin", "switchboard.js");
/**
 * A safety net, not a claim: how long a service may take to listen, and then to load its index. At load
 * 10-25 on two cores a start that takes 7 s when quiet has taken over two minutes.
 */
const START_LIMIT_MS = 300_000;

export interface Service {
  url: string;
  data: string;
  child: ChildProcess;
  /** Everything the service wrote to stderr so far (its pino logs). */
  logs(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `switchboard-${prefix}-`));
}

/** A catalog file written for one test file, so tools can point at that file's local stand-in servers. */
export async function writeCatalog(tools: object[]): Promise<string> {
  const file = join(await tempDir("catalog"), "catalog.json");
  await writeFile(file, JSON.stringify({ tools }, null, 2));
  return file;
}

/** Starts a service; `data` reuses the data folder of an earlier one (a restart). */
export async function startService(
  options: { catalog?: string; env?: Record<string, string>; data?: string } = {},
): Promise<Service> {
  const data = options.data ?? (await tempDir("data"));
  const args = [CLI, "serve", "--port", "0", "--data", data];
  if (options.catalog) args.push("--catalog", options.catalog);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "info", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(
      () => reject(new Error(`service did not start in ${START_LIMIT_MS / 1000} s:\n${stderr}`)),
      START_LIMIT_MS,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /switchboard listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${stderr}`));
    });
  });
  const service: Service = {
    url,
    data,
    child,
    logs: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
  await waitReady(service, exited);
  return service;
}

async function waitReady(service: Service, exited: Promise<number | null>): Promise<void> {
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const deadline = Date.now() + START_LIMIT_MS;
  while (Date.now() < deadline && !done) {
    const response = await fetch(`${service.url}/readyz`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`service never became ready:\n${service.logs()}`);
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON answers, checked field by field by the assertions
  body: any;
}

/** A JSON request; `body` may be a string to send it verbatim (malformed JSON tests). */
export async function call(
  service: Service,
  method: string,
  path: string,
  options: { body?: unknown; key?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${service.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface StandIn {
  url: string;
  refunds: string[];
  /** Resolves when a /slow request with this delay arrives. */
  slowArrived(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for the providers of the fixture's http tools (POST /refunds/{id} answers
 * { refunded }, GET /slow?ms= answers after that many milliseconds) and for an OpenAI-compatible LLM
 * (POST /llm/chat/completions always proposes a text-reversing tool, under the name it is asked for).
 */
export async function startStandIn(): Promise<StandIn> {
  const { createServer } = await import("node:http");
  const refunds: string[] = [];
  const slowWaiters = new Map<number, () => void>();
  const slowSeen = new Set<number>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const refund = /^\/refunds\/([^/]+)$/.exec(url.pathname);
    if (request.method === "POST" && refund?.[1]) {
      refunds.push(decodeURIComponent(refund[1]));
      return reply(200, { refunded: decodeURIComponent(refund[1]) });
    }
    if (request.method === "POST" && url.pathname === "/llm/chat/completions") {
      let text = "";
      request.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      request.on("end", () => {
        const { messages } = JSON.parse(text) as { messages: { content: string }[] };
        const name = /must be named (\w+)/.exec(messages[1]?.content ?? "")?.[1] ?? "reverse_text";
        const proposal = {
          name,
          description: "Reverse the characters of a text, e.g. to spell a word backwards.",
          inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
          code: `async function ${name}(args) { return { reversed: [...args.text].reverse().join("") }; }`,
        };
        reply(200, { choices: [{ message: { role: "assistant", content: JSON.stringify(proposal) } }] });
      });
      return;
    }
    if (url.pathname === "/slow") {
      const ms = Number(url.searchParams.get("ms") ?? 0);
      slowSeen.add(ms);
      slowWaiters.get(ms)?.();
      setTimeout(() => reply(200, { record: "found" }), Number(url.searchParams.get("ms") ?? 0));
      return;
    }
    reply(404, { error: "no such stand-in endpoint" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    refunds,
    slowArrived: (ms) =>
      slowSeen.has(ms) ? Promise.resolve() : new Promise((resolve) => slowWaiters.set(ms, resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
