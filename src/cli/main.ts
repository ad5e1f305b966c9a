// The `switchboard` CLI: a thin layer that parses flags and calls the same library functions as the
// HTTP and MCP servers. Each subcommand lives in commands/<name>.ts and is loaded only when used, so
// `switchboard catalog validate` does not pay for loading the embedding model.
import { UsageError } from "./errors.ts";

export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<{ command: Command }>> = {
  catalog: () => import("./commands/catalog.ts"),
  index: () => import("./commands/index-catalog.ts"),
  route: () => import("./commands/route.ts"),
  eval: () => import("./commands/eval.ts"),
  "eval-requests": () => import("./commands/eval-requests.ts"),
  "eval-functions": () => import("./commands/eval-functions.ts"),
  calibrate: () => import("./commands/calibrate.ts"),
  feedback: () => import("./commands/feedback.ts"),
  tools: () => import("./commands/tools.ts"),
  exec: () => import("./commands/exec.ts"),
  synth: () => import("./commands/synth.ts"),
  inspect: () => import("./commands/inspect.ts"),
  serve: () => import("./commands/serve.ts"),
  mcp: () => import("./commands/mcp.ts"),
};

async function help(): Promise<string> {
  const lines = ["Usage: switchboard <command> [options]", "", "Commands:"];
  for (const [name, load] of Object.entries(commands)) {
    const { command } = await load();
    lines.push(`  ${name.padEnd(10)} ${command.summary}`);
  }
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
    process.stdout.write(`${await help()}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`switchboard: unknown command "${name}"\n\n${await help()}\n`);
    return 2;
  }
  const { command } = await load();
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
