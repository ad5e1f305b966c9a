import { z } from "zod";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard catalog validate <file|dir> [--json]
  switchboard catalog import openapi <spec> [--out FILE] [--json]
  switchboard catalog import mcp [--out FILE] [--json] -- <command> [args...]
  switchboard catalog import functions <file> [--url BASE] [--out FILE] [--json]

validate   Checks every tool of a catalog (JSON or YAML file, or a folder of them) and reports every
           problem at once with its file, tool and field path. Exit 1 when there is any.
import     Turns an OpenAPI 3 document, the tools of an MCP stdio server, or function definitions
           (OpenAI Chat Completions or Responses tools, Anthropic tools, Gorilla/BFCL functions with
           Python type names) into catalog tools. With --url BASE each function is bound to
           POST BASE/<name> with its arguments as the JSON body; without, tools route but do not run.

Examples:
  npx switchboard catalog validate catalog/
  npx switchboard catalog validate test/fixtures/metatool/catalog.json --json
  npx switchboard catalog import openapi test/fixtures/petstore.yaml --out petstore.json
  npx switchboard catalog import mcp --out fs.json -- npx my-mcp-server
  npx switchboard catalog import functions tools.json --url https://api.example.com/fn --out fn.json
`;

const validateFlags = { json: { type: "boolean" } } as const;
const validateOptions = z.object({ json: z.boolean().default(false) });

async function validate(argv: string[]): Promise<number> {
  const { options, positionals } = parseCommand(argv, validateFlags, validateOptions);
  const [path, ...extra] = positionals;
  if (!path || extra.length > 0) throw new UsageError("catalog validate takes exactly one <file|dir>");
  const { formatProblem, isError, readCatalog } = await import("../../catalog/index.ts");
  const report = await readCatalog(path);
  const errors = report.problems.filter(isError).length;
  const warnings = report.problems.length - errors;
  if (options.json) {
    printJson({
      valid: errors === 0,
      errors,
      warnings,
      tools: report.tools.length,
      files: report.files,
      problems: report.problems,
    });
  } else {
    for (const problem of report.problems) process.stdout.write(`${formatProblem(problem)}\n`);
    const summary = `${report.tools.length} valid tool(s) in ${report.files.length} file(s), ${errors} error(s), ${warnings} warning(s)`;
    process.stdout.write(`${errors === 0 ? "ok" : "invalid"}: ${summary}\n`);
  }
  return errors === 0 ? 0 : 1;
}

export const command: Command = {
  usage,
  async run(argv) {
    const [action, ...rest] = argv;
    if (action === "validate") return validate(rest);
    if (action === "import") {
      const { importCommand } = await import("./catalog-import.ts");
      return importCommand(rest);
    }
    throw new UsageError(`unknown catalog action "${action ?? ""}"; use validate or import`);
  },
};
