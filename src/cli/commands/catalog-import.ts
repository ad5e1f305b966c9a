// `switchboard catalog import openapi|mcp|functions`: turns an OpenAPI 3 document, the tools of an MCP stdio
// server, or OpenAI/Anthropic/BFCL function definitions into catalog tools; written atomically to --out, or
// printed on stdout.
import { resolve } from "node:path";
import { z } from "zod";
import {
  importFunctions,
  importMcp,
  importOpenApi,
  type Tool,
  writeCatalogFile,
} from "../../catalog/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { printJson } from "../output.ts";

const flags = { out: { type: "string" }, url: { type: "string" }, json: { type: "boolean" } } as const;
const options = z.object({
  out: z.string().min(1).optional(),
  url: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

async function emit(imported: { tools: Tool[]; warnings: string[] }, out: string | undefined, json: boolean) {
  if (!json) for (const warning of imported.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (out === undefined) {
    if (json) printJson(imported);
    else process.stdout.write(`${JSON.stringify(imported.tools, null, 2)}\n`);
    return 0;
  }
  const path = resolve(out);
  await writeCatalogFile(path, imported.tools);
  if (json) printJson({ out: path, tools: imported.tools.length, warnings: imported.warnings });
  else process.stdout.write(`wrote ${imported.tools.length} tool(s) to ${path}\n`);
  return 0;
}

export async function importCommand(argv: string[]): Promise<number> {
  const [source, ...rest] = argv;
  const parsed = parseCommand(rest, flags, options);
  if (parsed.options.url !== undefined && source !== "functions")
    throw new UsageError("--url is for catalog import functions");
  if (source === "openapi") {
    const [spec, ...extra] = parsed.positionals;
    if (!spec || extra.length > 0 || parsed.rest.length > 0) {
      throw new UsageError("catalog import openapi takes exactly one <spec> (a JSON or YAML file, or a URL)");
    }
    return emit(await importOpenApi(spec), parsed.options.out, parsed.options.json);
  }
  if (source === "mcp") {
    const [command, ...args] = parsed.rest;
    if (!command || parsed.positionals.length > 0) {
      throw new UsageError(
        "catalog import mcp takes the server command after --: import mcp -- <command> [args...]",
      );
    }
    return emit(await importMcp(command, args), parsed.options.out, parsed.options.json);
  }
  if (source === "functions") {
    const [file, ...extra] = parsed.positionals;
    if (!file || extra.length > 0 || parsed.rest.length > 0)
      throw new UsageError("catalog import functions takes exactly one <file> of function definitions");
    const url = parsed.options.url;
    return emit(
      await importFunctions(file, url === undefined ? {} : { url }),
      parsed.options.out,
      parsed.options.json,
    );
  }
  throw new UsageError(`unknown import source "${source ?? ""}"; use openapi, mcp or functions`);
}
