import { z } from "zod";
import { parseCommand } from "../args.ts";
import { catalogCommandOptions, catalogFlags, indexConfig } from "../catalog-options.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard feedback [--catalog <file|dir>] [--data <dir>] --tool NAME [--json] "query text"
  switchboard feedback [--catalog <file|dir>] [--data <dir>] --file <pairs.jsonl> [--json]

Records that a query was rightly served by a tool, so that routing learns from use: the query becomes an
example of the tool (a vector and lexical text), kept in the data folder. Learned queries are deduplicated
and bounded per tool and in total, the oldest going first. --file takes JSON lines {"query", "tools": [names]}.

Examples:
  npx switchboard feedback --tool refund_order "I want my money back"
`;

const flags = { ...catalogFlags, tool: { type: "string" }, file: { type: "string" } } as const;

export const command: Command = {
  usage,
  async run(argv) {
    const schema = catalogCommandOptions().extend({
      tool: z.string().min(1).optional(),
      file: z.string().min(1).optional(),
    });
    const { options, positionals } = parseCommand(argv, flags, schema);
    const { openCatalogIndex, readQueryLines } = await loadApp();
    let pairs: { query: string; tool: string }[];
    if (options.file) {
      if (options.tool || positionals.length > 0)
        throw new UsageError("give either --file or --tool with a query");
      pairs = (await readQueryLines(options.file, true)).flatMap((l) =>
        (l.tools ?? []).map((tool) => ({ query: l.query, tool })),
      );
    } else {
      if (!options.tool) throw new UsageError("--tool: name the tool that served the query (or use --file)");
      if (positionals.length === 0) throw new UsageError("give the query that the tool served");
      pairs = [{ query: positionals.join(" "), tool: options.tool }];
    }
    const opened = await openCatalogIndex(await indexConfig(options));
    try {
      await opened.router.recordFeedbackMany(pairs);
      if (options.json) printJson({ recorded: pairs.length });
      else process.stdout.write(`recorded ${pairs.length} confirmed pair(s)\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
