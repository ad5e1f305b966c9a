import { z } from "zod";
import { parseCommand } from "../args.ts";
import { catalogCommandOptions, catalogFlags, indexConfig } from "../catalog-options.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson, progressBar } from "../output.ts";

const usage = `
Usage:
  switchboard calibrate [--catalog <file|dir>] --queries <file.jsonl> [--data <dir>] [--json]

Fits the router to a catalog and its embedder from labelled queries ({"query", "tools": [names]}; include
queries that need no tool, with an empty list): the weight of the lexical half in the fusion, the weight of
the no-tool class, the threshold a tool's score must clear, and the tier-1 confidence from which routing
stays within the chosen departments. Prints the fit and the trade-off around the chosen threshold (how many
tool queries still match, how many no-tool queries are turned away) and keeps it in the data folder.

Examples:
  npx switchboard calibrate --catalog catalog/ --queries catalog/eval/queries.jsonl
`;

const flags = { ...catalogFlags, queries: { type: "string" } } as const;

export const command: Command = {
  usage,
  async run(argv) {
    const schema = catalogCommandOptions().extend({
      queries: z.string({ error: "is required: a JSON lines file of labelled queries" }).min(1),
    });
    const { options, positionals } = parseCommand(argv, flags, schema);
    if (positionals.length > 0)
      throw new UsageError(`calibrate takes no arguments (got "${positionals[0]}")`);
    const { openCatalogIndex, readQueryLines } = await loadApp();
    const labelled = await readQueryLines(options.queries, true);
    const progress = progressBar("indexing", options.json);
    const opened = await openCatalogIndex(await indexConfig(options), {
      onProgress: (d, t) => progress.update(d, t),
    });
    progress.stop();
    try {
      const fit = await opened.router.calibrate(
        labelled.map((l) => ({ query: l.query, tools: l.tools ?? [] })),
      );
      if (options.json) {
        printJson({ ...fit, source: opened.router.currentCalibration.source });
        return 0;
      }
      process.stdout.write(
        `${opened.router.currentCalibration.source}\n` +
          `lexical weight ${fit.lexicalWeight}, no-tool weight ${fit.rejectWeight}, threshold ${fit.threshold}, ` +
          `tier-1 confidence ${fit.tierConfidence ?? "off (always global)"}\n` +
          `hit@1 ${fit.quality.hitAt1}, MRR ${fit.quality.mrr}, no-tool AUROC ${fit.quality.noToolAUROC ?? "n/a"}, accuracy ${fit.quality.accuracy}\n\n` +
          "threshold  tool queries matched  no-tool queries rejected  accuracy\n",
      );
      for (const t of fit.tradeOff)
        process.stdout.write(
          `${String(t.threshold).padEnd(10)} ${String(t.toolRecall).padEnd(21)} ${String(t.noToolRejection ?? "n/a").padEnd(25)} ${t.accuracy}\n`,
        );
      return 0;
    } finally {
      await opened.close();
    }
  },
};
