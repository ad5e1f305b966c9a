import { z } from "zod";
import { parseCommand } from "../args.ts";
import { catalogCommandOptions, catalogFlags, indexConfig } from "../catalog-options.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson, progressBar } from "../output.ts";

const usage = `
Usage:
  switchboard route [--catalog <file|dir>] [--data <dir>] [--top-k K] [--threshold T] [--category C]... [--json] "query text"
  switchboard route [--catalog <file|dir>] [--data <dir>] [--top-k K] --json --queries <file.jsonl>

Finds the tools for a query: the top K (default 5) by fused dense and lexical score, and whether the best
clears the calibrated threshold (matched). With --queries, reads JSON lines with a "query" field and prints
one JSON line per query, in order: {"query", "matched", "tools": [{"name", "score"}]}. A catalog that was
not indexed yet is indexed first. --catalog defaults to the bundled catalog.

Examples:
  npx switchboard route "I want my money back for order 1234"
  npx switchboard route --catalog test/fixtures/metatool/catalog.json --top-k 5 --json "book a hotel in Rome"
`;

const flags = {
  ...catalogFlags,
  "top-k": { type: "string" },
  threshold: { type: "string" },
  category: { type: "string", multiple: true },
  queries: { type: "string" },
} as const;

export const command: Command = {
  usage,
  async run(argv) {
    const schema = catalogCommandOptions().extend({
      "top-k": z.coerce.number().int("must be a whole number").min(1, "must be at least 1").default(5),
      threshold: z.coerce.number().optional(),
      category: z.array(z.string().min(1)).optional(),
      queries: z.string().min(1).optional(),
    });
    const { options, positionals } = parseCommand(argv, flags, schema);
    const text = positionals.join(" ");
    if (options.queries && positionals.length > 0)
      throw new UsageError("give either a query or --queries <file.jsonl>, not both");
    if (!options.queries && positionals.length === 0)
      throw new UsageError('give a query, e.g. switchboard route "convert 10 USD to EUR"');
    const { openCatalogIndex, readQueryLines } = await loadApp();
    const lines = options.queries ? await readQueryLines(options.queries, false) : undefined;
    const progress = progressBar("indexing", options.json);
    const opened = await openCatalogIndex(await indexConfig(options), {
      onProgress: (d, t) => progress.update(d, t),
    });
    progress.stop();
    try {
      // As the service routes for a key of none: tools synthesized for agent keys wait for a maintainer.
      const pending = new Set(opened.registry.pending().map((entry) => entry.tool.name));
      const routeOptions = {
        topK: options["top-k"],
        ...(pending.size > 0 ? { hide: (name: string) => pending.has(name) } : {}),
        ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
        ...(options.category ? { categories: options.category } : {}),
      };
      if (lines) {
        for (const line of lines) {
          const result = await opened.router.route(line.query, routeOptions);
          const tools = result.tools.map((t) => ({ name: t.name, score: t.score }));
          if (options.json) printJson({ query: line.query, matched: result.matched, tools });
          else
            process.stdout.write(
              `${result.matched ? "matched" : "no match"}\t${tools.map((t) => t.name).join(", ")}\t${line.query}\n`,
            );
        }
        return 0;
      }
      const result = await opened.router.route(text, routeOptions);
      for (const notice of result.notices) process.stderr.write(`note: ${notice}\n`);
      if (options.json) printJson(result);
      else {
        process.stdout.write(
          `${result.matched ? "matched" : "no tool clears the threshold"} (threshold ${result.threshold})\n`,
        );
        for (const t of result.tools)
          process.stdout.write(
            `  ${t.name.padEnd(32)} ${t.score.toFixed(3)}  dense ${t.why.dense.toFixed(3)} lexical ${t.why.lexical.toFixed(3)} subword ${t.why.subword.toFixed(3)} tier ${t.why.tier}${t.why.category ? ` (${t.why.category})` : ""}\n`,
          );
      }
      return 0;
    } finally {
      await opened.close();
    }
  },
};
