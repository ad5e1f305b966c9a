// npm run bench:startup [-- --runs 3]
// Time to ready of the real processes on the bundled catalog, cold (a fresh data folder) and warm (the same
// folder again): `serve` until it prints "ready on", and MCP over stdio until it answers `initialize` and
// until its first search_tools call answers (which waits for the index). Prints JSON, medians in ms and
// every run; the machine's load average is included because a busy machine moves these figures.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "bin", "switchboard.js");
const GIVE_UP_MS = 180_000;

const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs must be a whole number of at least 1");

function start(args: string[]): { child: ChildProcessWithoutNullStreams; started: number } {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn", SWITCHBOARD_LOG_FORMAT: "json" },
  });
  child.stderr.resume();
  return { child, started };
}

/** Resolves with the first stdout line that `match` accepts; rejects when the process ends first. */
function lineMatching(
  child: ChildProcessWithoutNullStreams,
  match: (line: string) => boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error("gave up waiting")), GIVE_UP_MS);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      const line = lines.find(match);
      if (line === undefined) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      resolve(line);
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}`));
    });
  });
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function serve(data: string): Promise<{ listening: number; ready: number }> {
  const { child, started } = start(["serve", "--port", "0", "--data", data]);
  try {
    await lineMatching(child, (line) => line.startsWith("switchboard listening on "));
    const listening = performance.now() - started;
    await lineMatching(child, (line) => line.startsWith("ready on "));
    return { listening: Math.round(listening), ready: Math.round(performance.now() - started) };
  } finally {
    await stop(child);
  }
}

async function mcp(data: string): Promise<{ initialize: number; firstSearch: number }> {
  const { child, started } = start(["mcp", "--data", data]);
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const answer = (id: number) => lineMatching(child, (line) => line.includes(`"id":${id}`));
  try {
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    });
    await answer(1);
    const initialize = performance.now() - started;
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "search_tools", arguments: { query: "convert 10 USD to EUR" } },
    });
    const line = await answer(2);
    if (!line.includes("convert_currency"))
      throw new Error(`unexpected search answer: ${line.slice(0, 200)}`);
    return { initialize: Math.round(initialize), firstSearch: Math.round(performance.now() - started) };
  } finally {
    child.stdin.end();
    await stop(child);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const results = {
  serve: {
    cold: [] as { listening: number; ready: number }[],
    warm: [] as { listening: number; ready: number }[],
  },
  mcp: {
    cold: [] as { initialize: number; firstSearch: number }[],
    warm: [] as { initialize: number; firstSearch: number }[],
  },
};
for (let i = 0; i < runs; i++) {
  const serveData = await mkdtemp(join(tmpdir(), "switchboard-bench-startup-"));
  const mcpData = await mkdtemp(join(tmpdir(), "switchboard-bench-startup-"));
  try {
    results.serve.cold.push(await serve(serveData));
    results.serve.warm.push(await serve(serveData));
    results.mcp.cold.push(await mcp(mcpData));
    results.mcp.warm.push(await mcp(mcpData));
  } finally {
    await rm(serveData, { recursive: true, force: true });
    await rm(mcpData, { recursive: true, force: true });
  }
}

const pick = <T>(list: T[], key: keyof T) => median(list.map((r) => r[key] as number));
process.stdout.write(
  `${JSON.stringify(
    {
      catalog: "bundled",
      runs,
      cpus: availableParallelism(),
      loadavg: loadavg().map((l) => Number(l.toFixed(2))),
      medianMs: {
        serve: {
          cold: {
            listening: pick(results.serve.cold, "listening"),
            ready: pick(results.serve.cold, "ready"),
          },
          warm: {
            listening: pick(results.serve.warm, "listening"),
            ready: pick(results.serve.warm, "ready"),
          },
        },
        mcpStdio: {
          cold: {
            initialize: pick(results.mcp.cold, "initialize"),
            firstSearch: pick(results.mcp.cold, "firstSearch"),
          },
          warm: {
            initialize: pick(results.mcp.warm, "initialize"),
            firstSearch: pick(results.mcp.warm, "firstSearch"),
          },
        },
      },
      runsMs: results,
    },
    null,
    2,
  )}\n`,
);
