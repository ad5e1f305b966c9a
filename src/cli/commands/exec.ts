import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { text as readAll } from "node:stream/consumers";
import { z } from "zod";
import type { CallResult } from "../../app/index.ts";
import { createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard exec <tool> [--args JSON] [--timeout MS] [--json] [--data DIR] [--catalog PATH]
  switchboard exec --calls FILE [--timeout MS] [--json] [--data DIR] [--catalog PATH]

Runs tool calls through the dispatcher (retries, breakers, fallbacks, budgets) and prints each result.
--calls reads a JSON file ("-" for stdin) holding an array of { "id"?, "name", "arguments" } or
{ "calls": [...] }; calls without an id get call-1, call-2, … The calls start once a sandbox host is up,
so its start does not count against their deadlines; --timeout MS stops any call still running MS ms
after that (each tool's own deadline applies too). Exit 0 when every call completed, 1 when any failed,
2 for a usage mistake.

Examples:
  npx switchboard exec calculate --args '{"expression":"2*(3+4)"}'
  npx switchboard exec --calls calls.json --json
`;

const flags = {
  args: { type: "string" },
  calls: { type: "string" },
  timeout: { type: "string" },
  json: { type: "boolean" },
  data: { type: "string" },
  catalog: { type: "string" },
} as const;
const optionsSchema = z.object({
  args: z.string().optional(),
  calls: z.string().min(1).optional(),
  timeout: z.coerce.number().int("must be a whole number of milliseconds").positive().optional(),
  json: z.boolean().default(false),
  data: z.string().min(1).optional(),
  catalog: z.string().min(1).optional(),
});

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

async function readCalls(positionals: string[], options: z.infer<typeof optionsSchema>) {
  let raw: unknown;
  if (options.calls !== undefined) {
    if (positionals.length > 0 || options.args !== undefined)
      throw new UsageError("give either --calls FILE or <tool> [--args JSON], not both");
    const text = options.calls === "-" ? await readAll(process.stdin) : await readFile(options.calls, "utf8");
    const document = parseJson(text, `--calls ${options.calls}`);
    raw = Array.isArray(document) ? document : (document as { calls?: unknown })?.calls;
  } else {
    const [name, ...extra] = positionals;
    if (!name || extra.length > 0) throw new UsageError("name exactly one <tool>, or use --calls FILE");
    raw = [{ name, arguments: options.args === undefined ? {} : parseJson(options.args, "--args") }];
  }
  const withIds = Array.isArray(raw)
    ? raw.map((call, i) =>
        call && typeof call === "object" && !("id" in call) ? { id: `call-${i + 1}`, ...call } : call,
      )
    : raw;
  const { executeRequestSchema } = await loadApp();
  const parsed = executeRequestSchema.safeParse({ calls: withIds });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`bad call at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  return parsed.data.calls;
}

function printResult(result: CallResult): void {
  const mark = result.status === "completed" ? "✓" : "✗";
  process.stdout.write(
    `${mark} ${result.id} ${result.name}: ${result.status} in ${Math.round(result.timing.totalMs)} ms\n`,
  );
  if (result.error) {
    process.stdout.write(`  ${result.error.class}: ${result.error.message}\n`);
    for (const issue of result.error.issues ?? [])
      process.stdout.write(`    ${issue.path || "(arguments)"}: ${issue.message}\n`);
  }
  if (result.output !== undefined) process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
}

export const command: Command = {
  usage,
  async run(argv) {
    const { options, positionals } = parseCommand(argv, flags, optionsSchema);
    const calls = await readCalls(positionals, options);
    const { configFrom, openSwitchboard } = await loadApp();
    const env = readEnv();
    const app = await openSwitchboard(configFrom(env, options), {
      logger: createLogger(env.SWITCHBOARD_LOG_LEVEL),
      index: false,
      waitForSandbox: true,
      // A host per call up to one per core: a single call does not wait for a second host to boot beside it.
      sandboxHosts: Math.min(calls.length, availableParallelism()),
    });
    try {
      const signal = options.timeout === undefined ? undefined : AbortSignal.timeout(options.timeout);
      const results = await app.execute(calls, signal ? { signal } : {});
      if (options.json) printJson({ results });
      else results.forEach(printResult);
      return results.every((r) => r.status === "completed") ? 0 : 1;
    } finally {
      await app.close();
    }
  },
};
