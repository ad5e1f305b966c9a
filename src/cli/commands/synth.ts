import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { SynthesisFailure, SynthesisIssue, SynthesizeRequest } from "../../app/index.ts";
import { createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard synth --name NAME --code FILE [--description TEXT] [--schema FILE] [--args JSON]
                    [--register] [--data DIR] [--json]

Checks a tool's code against the sandbox policy, compiles it in an isolate and, with --args, runs it once
with those arguments. With --register the tool is stored (versioned) as a synthesized tool where the service
keeps its tools: the data folder, or with SWITCHBOARD_DATABASE_URL PostgreSQL, whence every running replica
takes it in. The code must define exactly \`async function NAME(args, ctx)\`.

--schema   A JSON or YAML file: the tool's inputSchema, or an object with inputSchema, outputSchema and
           capabilities (e.g. { "fetch": { "allow": ["https://api.example.com/"] }, "html": true }).
--json     Prints {"status": "ok" | "rejected" | "error", "result"?, "error"?: {"stage", "kind",
           "message"}, "ms"}: "rejected" when the code was refused before it ran (definition, static
           policy, compile), "error" when it ran and failed (runtime, output) or could not be read.

Exit 0 when ok, 1 otherwise, 2 for a usage mistake.

Examples:
  npx switchboard synth --name slugify --code slugify.js --args '{"title":"Hello World"}' --json
  npx switchboard synth --name top_stories --code hn.js --schema hn.schema.json --register --data .switchboard
`;

const flags = {
  name: { type: "string" },
  code: { type: "string" },
  description: { type: "string" },
  schema: { type: "string" },
  args: { type: "string" },
  register: { type: "boolean" },
  data: { type: "string" },
  json: { type: "boolean" },
} as const;

const optionsSchema = z.object({
  name: z.string({ error: "is required" }).min(1),
  code: z.string({ error: "is required" }).min(1),
  description: z.string().min(1).optional(),
  schema: z.string().min(1).optional(),
  args: z.string().optional(),
  register: z.boolean().default(false),
  data: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

interface Report {
  status: "ok" | "rejected" | "error";
  result?: unknown;
  error?: { stage: string; kind: string; message: string };
  registered?: { name: string; version: number | undefined };
  ms: number;
}

/** Thrown for a file that cannot be read or parsed: reported as status "error", not as a usage mistake. */
class InputError extends Error {}

async function readText(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new InputError(`${flag} ${path}: ${(error as Error).message}`);
  }
}

async function readDefinition(path: string | undefined): Promise<Record<string, unknown>> {
  if (path === undefined) return { inputSchema: { type: "object" } };
  let document: unknown;
  try {
    const { parseYaml } = await import("../../catalog/index.ts");
    document = parseYaml(await readText(path, "--schema"));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`--schema ${path} is not JSON or YAML: ${(error as Error).message}`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    throw new InputError(`--schema ${path} must hold an object`);
  if (!("inputSchema" in document)) return { inputSchema: document };
  const { inputSchema, outputSchema, capabilities } = document as Record<string, unknown>;
  return { inputSchema, outputSchema, capabilities };
}

function parseArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError("--args must be a JSON object");
  return value as Record<string, unknown>;
}

const describeIssue = (issue: SynthesisIssue) => {
  const where =
    issue.line !== undefined ? `${issue.line}:${issue.column ?? 1} ` : issue.path ? `${issue.path}: ` : "";
  return `${where}${issue.message}`;
};

function failureReport(failure: SynthesisFailure, ms: number): Report {
  const ran = failure.stage === "runtime" || failure.stage === "output";
  return {
    status: ran ? "error" : "rejected",
    error: {
      stage: failure.stage,
      kind: failure.kind,
      message: failure.errors.map(describeIssue).join("\n"),
    },
    ms,
  };
}

async function synth(options: z.infer<typeof optionsSchema>, started: number): Promise<Report> {
  const args = parseArgs(options.args);
  const code = await readText(options.code, "--code");
  const definition = await readDefinition(options.schema);
  // Checked by the synthesizer's definition stage like any other field.
  const request = {
    name: options.name,
    description: options.description ?? `Synthesized tool ${options.name}`,
    ...definition,
    code,
    ...(args === undefined ? {} : { testArgs: args }),
  } as SynthesizeRequest;
  const outcome = options.register ? await register(request, options.data) : await check(request);
  const ms = Math.round((performance.now() - started) * 100) / 100;
  if (!outcome.ok) return failureReport(outcome, ms);
  return {
    status: "ok",
    ...(args === undefined ? {} : { result: outcome.tests[0]?.output ?? null }),
    ...(options.register ? { registered: { name: outcome.tool.name, version: outcome.tool.version } } : {}),
    ms,
  };
}

/** Synthesized and stored as the service would: through its composition root, in its store. */
async function register(request: SynthesizeRequest, data: string | undefined) {
  const { configFrom, openSwitchboard } = await loadApp();
  const env = readEnv();
  const app = await openSwitchboard(configFrom(env, { data }), {
    logger: createLogger(env.SWITCHBOARD_LOG_LEVEL),
    index: false,
  });
  try {
    return await app.synthesize(request);
  } finally {
    await app.close();
  }
}

/** Checked and run only: no store is opened. */
async function check(request: SynthesizeRequest) {
  const { checkTool } = await loadApp();
  const env = readEnv();
  return checkTool(
    { ...request, code: request.code as string },
    { egressAllow: env.SWITCHBOARD_EGRESS_ALLOW, chromium: env.SWITCHBOARD_CHROMIUM },
  );
}

function printHuman(report: Report) {
  if (report.status === "ok") {
    if ("result" in report) process.stdout.write(`${JSON.stringify(report.result, null, 2)}\n`);
    if (report.registered)
      process.stdout.write(`registered ${report.registered.name} version ${report.registered.version}\n`);
    process.stdout.write(`ok (${report.ms} ms)\n`);
    return;
  }
  const error = report.error;
  process.stdout.write(`${report.status} at ${error?.stage} (${error?.kind}):\n${error?.message}\n`);
}

export const command: Command = {
  usage,
  async run(argv) {
    const started = performance.now();
    const { options, positionals } = parseCommand(argv, flags, optionsSchema);
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    let report: Report;
    try {
      report = await synth(options, started);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      report = {
        status: "error",
        error: { stage: "definition", kind: "input", message: error.message },
        ms: Math.round((performance.now() - started) * 100) / 100,
      };
    }
    if (options.json) printJson(report);
    else printHuman(report);
    return report.status === "ok" ? 0 : 1;
  },
};
