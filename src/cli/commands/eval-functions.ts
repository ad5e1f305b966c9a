import { z } from "zod";
import { createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard eval-functions <file.json>... [--failures] [--json]

Runs function-calling questions in the BFCL format (one question per line: "id", "question" turns, its own
"function" definitions; the ground truth in possible_answer/<same file name> beside it) through
route-and-execute, offline and without an LLM. Each question is routed among its own functions only; every
function is bound to a local stand-in that records the call and runs nothing. Reports per category (the id
without its number): tool right (the answer names the ground truth's functions, completed or needs_input),
full call right (BFCL's AST rules), completed with a wrong call, executed on questions that expect no call,
needs_input, no_match, and calls that ran but are missing from the answer or ran twice. --failures lists
each question whose call was not fully right.

Examples:
  npx switchboard eval-functions test/fixtures/bfcl/mini_simple.json test/fixtures/bfcl/mini_irrelevance.json --json
`;

const flags = { failures: { type: "boolean" }, json: { type: "boolean" } } as const;
const optionsSchema = z.object({ failures: z.boolean().default(false), json: z.boolean().default(false) });

export const command: Command = {
  usage,
  async run(argv) {
    const { options, positionals } = parseCommand(argv, flags, optionsSchema);
    if (positionals.length === 0) throw new UsageError("eval-functions takes one or more BFCL-format files");
    const env = readEnv();
    const started = performance.now();
    const { evaluateFunctions } = await loadApp();
    const report = await evaluateFunctions(positionals, {
      settings: {
        embedder: {
          kind: env.SWITCHBOARD_EMBEDDER,
          ...(env.SWITCHBOARD_MODEL ? { model: env.SWITCHBOARD_MODEL } : {}),
        },
      },
      logger: createLogger(env.SWITCHBOARD_LOG_LEVEL),
    });
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const failures = report.outcomes
      .filter((o) => o.fullCallRight !== true && (o.expectsCall || o.executed || o.hiddenOrRepeated))
      .map(({ id, status, named, calls, received, hiddenOrRepeated, refused }) => ({
        id,
        status,
        named,
        calls,
        ...(hiddenOrRepeated ? { received } : {}),
        ...(refused ? { refused } : {}),
      }));
    const { outcomes: _outcomes, ...summary } = report;
    if (options.json) printJson({ ...summary, seconds, ...(options.failures ? { failures } : {}) });
    else {
      for (const [category, r] of [
        ...Object.entries(report.byCategory),
        ["overall", report.overall] as const,
      ])
        process.stdout.write(
          `${String(category).padEnd(20)} ${r.questions} questions: tool right ${r.toolRight}/${r.withCalls}, full call right ${r.fullCallRight}, completed wrong ${r.completedWrongCall}, executed on irrelevant ${r.executedOnIrrelevant}/${r.questions - r.withCalls}, needs_input ${r.needsInput}, no_match ${r.noMatch}, hidden or repeated ${r.hiddenOrRepeated}\n`,
        );
      process.stdout.write(`${report.questions} questions, ${report.tools} tools, ${seconds} s\n`);
      if (options.failures) for (const f of failures) process.stdout.write(`${JSON.stringify(f)}\n`);
    }
    return 0;
  },
};
