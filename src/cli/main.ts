// The `switchboard` CLI: a thin layer that parses flags and calls the composition root (src/app), the same
// one the HTTP and MCP servers use. Each subcommand lives in commands/<name>.ts and is loaded only when it
// runs; the table below holds what `--help` prints, so help and usage errors load nothing heavy.
import { UsageError } from "./errors.ts";

export interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

interface Entry {
  summary: string;
  load(): Promise<{ command: Command }>;
}

const commands: Record<string, Entry> = {
  catalog: {
    summary: "Validate a catalog, or import tools from OpenAPI, an MCP server or function definitions",
    load: () => import("./commands/catalog.ts"),
  },
  index: {
    summary: "Build or update the search index of a catalog",
    load: () => import("./commands/index-catalog.ts"),
  },
  route: { summary: "Find the tools for a query", load: () => import("./commands/route.ts") },
  eval: { summary: "Measure routing quality on labelled queries", load: () => import("./commands/eval.ts") },
  "eval-requests": {
    summary: "Measure route-and-execute answers on labelled agent requests",
    load: () => import("./commands/eval-requests.ts"),
  },
  "eval-functions": {
    summary: "Measure route-and-execute on function-calling questions (BFCL format)",
    load: () => import("./commands/eval-functions.ts"),
  },
  calibrate: {
    summary: "Fit the fusion weights and the threshold to labelled queries",
    load: () => import("./commands/calibrate.ts"),
  },
  feedback: {
    summary: "Record that a query was served by a tool (learning from use)",
    load: () => import("./commands/feedback.ts"),
  },
  tools: {
    summary: "List, put or delete the tools the service serves",
    load: () => import("./commands/tools.ts"),
  },
  exec: {
    summary: "Execute tool calls through the resilient dispatcher",
    load: () => import("./commands/exec.ts"),
  },
  synth: {
    summary: "Synthesize a tool from code, check it and run it in the sandbox",
    load: () => import("./commands/synth.ts"),
  },
  inspect: {
    summary: "Tell whether a page is static or dynamic, with selectors for its lists",
    load: () => import("./commands/inspect.ts"),
  },
  serve: {
    summary: "Start the HTTP service (route, execute, synthesize; MCP at /mcp)",
    load: () => import("./commands/serve.ts"),
  },
  mcp: {
    summary: "Start the MCP stdio server (search_tools, call_tool, route_and_execute, synthesize_tool)",
    load: () => import("./commands/mcp.ts"),
  },
};

function help(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length)) + 2;
  const lines = ["Usage: switchboard <command> [options]", "", "Commands:"];
  for (const [name, entry] of Object.entries(commands)) lines.push(`  ${name.padEnd(width)}${entry.summary}`);
  lines.push("", "Run `switchboard <command> --help` for a command's options and examples.");
  return lines.join("\n");
}

/**
 * The code of a --json error, in the HTTP API's `{ error: { code, message } }` shape: the caller's mistake
 * (usage, configuration, an invalid catalog or input) apart from a failure of the work itself.
 */
function errorCode(error: unknown): string {
  const name = (error as Error | undefined)?.name;
  if (name === "UsageError") return "usage";
  if (name === "ConfigError") return "config";
  if (name === "CatalogError" || name === "ToolValidationError") return "invalid_catalog";
  if (name === "AppError") return String((error as { code: unknown }).code);
  if (name === "RouterError") return "invalid";
  return "failed";
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${help()}\n`);
    return name === undefined ? 2 : 0;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    process.stderr.write(`switchboard: unknown command "${name}"\n\n${help()}\n`);
    return 2;
  }
  const { command } = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`${command.usage.trim()}\n`);
    return 0;
  }
  const json = rest.includes("--json");
  try {
    return await command.run(rest);
  } catch (error) {
    const code = error instanceof UsageError ? 2 : 1;
    // Errors carry a sentence meant for the user; the stack is only for debugging Switchboard itself.
    const debug = process.env.SWITCHBOARD_LOG_LEVEL === "debug";
    const message = (debug ? (error as Error)?.stack : (error as Error)?.message) ?? String(error);
    if (json)
      process.stdout.write(
        `${JSON.stringify({ error: { code: errorCode(error), message: (error as Error)?.message ?? String(error) } })}\n`,
      );
    process.stderr.write(`switchboard ${name}: ${message}\n`);
    if (code === 2) process.stderr.write(`Run "switchboard ${name} --help" for usage.\n`);
    return code;
  }
}
