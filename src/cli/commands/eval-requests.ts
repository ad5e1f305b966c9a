import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { LabelledRequest, Verdict } from "../../app/index.ts";
import { createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard eval-requests --queries <file.jsonl> [--catalog <file|dir>] [--data <dir>] [--failures] [--json]

Sends every labelled agent request ({"id", "kind", "query", "arguments"?, "expect": {"status", "tool"?,
"output"?, "intents"?}}) through route-and-execute and reports, per kind, how many were answered correctly
(expected status, tool and answer fields) and how many were silently wrong ("completed" with a wrong tool
or answer, or where needs_input or no_match was right). Without --data it runs on a fresh temporary data
folder, so nothing learned earlier changes the figures. --failures lists each request that was not correct.

Examples:
  npx switchboard eval-requests --queries catalog/eval/requests-test.jsonl --json
`;

const flags = {
  queries: { type: "string" },
  catalog: { type: "string" },
  data: { type: "string" },
  failures: { type: "boolean" },
  json: { type: "boolean" },
} as const;

const optionsSchema = z.object({
  queries: z.string({ error: "is required: a JSON lines file of labelled requests" }).min(1),
  catalog: z.string().min(1).optional(),
  data: z.string().min(1).optional(),
  failures: z.boolean().default(false),
  json: z.boolean().default(false),
});

export const command: Command = {
  usage,
  async run(argv) {
    const { options, positionals } = parseCommand(argv, flags, optionsSchema);
    if (positionals.length > 0)
      throw new UsageError(`eval-requests takes no arguments (got "${positionals[0]}")`);
    const { configFrom, judge, openSwitchboard, readLabelledRequests, summarise } = await loadApp();
    const requests = await readLabelledRequests(options.queries);
    const data = options.data ?? (await mkdtemp(join(tmpdir(), "switchboard-eval-requests-")));
    const env = readEnv();
    const app = await openSwitchboard(
      configFrom(env, { ...(options.catalog ? { catalog: options.catalog } : {}), data }),
      // The answers are measured, not the start: a cold sandbox host does not eat the first calls' deadlines.
      { logger: createLogger(env.SWITCHBOARD_LOG_LEVEL), waitForSandbox: true },
    );
    const judged: { request: LabelledRequest; verdict: Verdict; got: unknown }[] = [];
    try {
      for (const request of requests) {
        const answer = await app.routeAndExecute({
          query: request.query,
          ...(request.arguments ? { arguments: request.arguments } : {}),
        });
        const got = answer.intents
          ? {
              status: answer.status,
              intents: answer.intents.map((i) => ({
                status: i.status,
                tool: i.tool,
                output: i.result?.output,
              })),
            }
          : {
              status: answer.status,
              tool: answer.tool,
              output: answer.result?.output,
              missing: answer.missing?.map((m) => m.field),
            };
        judged.push({ request, verdict: judge(request, answer), got });
      }
    } finally {
      await app.close();
      if (!options.data) await rm(data, { recursive: true, force: true });
    }
    const summary = summarise(judged);
    const failures = judged
      .filter((j) => !j.verdict.correct)
      .map((j) => ({
        id: j.request.id,
        query: j.request.query,
        silentlyWrong: j.verdict.silentlyWrong,
        expected: j.request.expect,
        got: j.got,
      }));
    if (options.json) printJson({ ...summary, ...(options.failures ? { failures } : {}) });
    else {
      const line = (name: string, r: { requests: number; correct: number; silentlyWrong: number }) =>
        process.stdout.write(
          `${name.padEnd(24)} correct ${r.correct}/${r.requests}  silently wrong ${r.silentlyWrong}\n`,
        );
      for (const [kind, r] of Object.entries(summary.byKind)) line(kind, r);
      line("excluding multi-intent", summary.excludingMultiIntent);
      line("overall", summary.overall);
      if (options.failures) for (const f of failures) process.stdout.write(`${JSON.stringify(f)}\n`);
    }
    return 0;
  },
};
