import { readFile } from "node:fs/promises";
import { text as readAll } from "node:stream/consumers";
import { z } from "zod";
import type { Switchboard } from "../../app/index.ts";
import type { Tool } from "../../catalog/index.ts";
import { createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard tools list [--data DIR] [--catalog PATH] [--json]
  switchboard tools put <file|-> [--data DIR] [--catalog PATH] [--json]
  switchboard tools delete <name> [--data DIR] [--catalog PATH] [--json]

Reads and changes the tool overlay the service serves, as PUT and DELETE /v1/tools/{name} do: in the data
folder, or with SWITCHBOARD_DATABASE_URL in PostgreSQL, where every running replica takes the change in.
put takes a JSON or YAML file ("-" for stdin) holding one tool, or a catalog { "tools": [...] }; each
tool is checked like one put through the API (the operator's security settings apply) and versioned.

Examples:
  npx switchboard tools put refund_order.json
  npx switchboard tools delete refund_order --json
`;

const flags = { data: { type: "string" }, catalog: { type: "string" }, json: { type: "boolean" } } as const;
const optionsSchema = z.object({
  data: z.string().min(1).optional(),
  catalog: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

/** The tools of a file, each checked; the first problem is the error, with its file and place. */
async function readTools(file: string): Promise<Tool[]> {
  let document: unknown;
  try {
    const { parseYaml } = await import("../../catalog/index.ts");
    document = parseYaml(file === "-" ? await readAll(process.stdin) : await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file}: cannot read a JSON or YAML document: ${(error as Error).message}`);
  }
  const many =
    typeof document === "object" &&
    document !== null &&
    Array.isArray((document as { tools?: unknown }).tools);
  const entries: unknown[] = many ? (document as { tools: unknown[] }).tools : [document];
  const { AppError, toolSchema } = await loadApp();
  return entries.map((entry, i) => {
    const parsed = toolSchema.safeParse(entry);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const place = [...(many ? ["tools", i] : []), ...(issue?.path ?? [])].join(".") || "(root)";
    throw new AppError("invalid", `${file}: ${place}: ${issue?.message}`);
  });
}

async function act(app: Switchboard, action: string, argument: string, json: boolean): Promise<void> {
  if (action === "put") {
    const tools = await readTools(argument);
    const stored: Tool[] = [];
    for (const tool of tools) stored.push(await app.putTool(tool));
    if (json) printJson({ tools: stored.map((t) => ({ name: t.name, version: t.version })) });
    else for (const t of stored) process.stdout.write(`stored ${t.name} version ${t.version}\n`);
    return;
  }
  await app.deleteTool(argument);
  if (json) printJson({ deleted: argument });
  else process.stdout.write(`deleted ${argument}\n`);
}

export const command: Command = {
  usage,
  async run(argv) {
    const { options, positionals } = parseCommand(argv, flags, optionsSchema);
    const [action, argument, ...extra] = positionals;
    if (action !== "list" && action !== "put" && action !== "delete")
      throw new UsageError(`unknown tools action "${action ?? ""}"; use list, put or delete`);
    if (action === "list" ? argument !== undefined : argument === undefined || extra.length > 0)
      throw new UsageError(
        action === "list" ? "tools list takes no arguments" : `tools ${action} takes exactly one argument`,
      );
    const { configFrom, openSwitchboard } = await loadApp();
    const env = readEnv();
    // The composition root on the service's configuration: the same store, admission rules and versions. The
    // index is not needed: the service embeds what it takes in.
    const app = await openSwitchboard(configFrom(env, options), {
      logger: createLogger(env.SWITCHBOARD_LOG_LEVEL),
      index: false,
    });
    try {
      if (action === "list") {
        const tools = app
          .listTools()
          .map((t) => ({ name: t.name, version: t.version, category: t.category }));
        if (options.json) printJson({ tools });
        else
          for (const t of tools) process.stdout.write(`${t.name}\t${t.version ?? ""}\t${t.category ?? ""}\n`);
      } else await act(app, action, argument as string, options.json);
      return 0;
    } finally {
      await app.close();
    }
  },
};
