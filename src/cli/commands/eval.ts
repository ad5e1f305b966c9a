import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { Judged } from "../../app/index.ts";
import { parseCommand } from "../args.ts";
import { catalogCommandOptions, catalogFlags, indexConfig } from "../catalog-options.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson, progressBar } from "../output.ts";

const usage = `
Usage:
  switchboard eval [--catalog <file|dir>] --queries <file.jsonl> [--examples <file.jsonl>] [--top-k K] [--data <dir>] [--json]

Routes every labelled query ({"query", "tools": [names]}, an empty list meaning no tool should be chosen)
and reports hit@1, recall@K, complete@K (all gold tools in the top K), MRR, how well the router tells
no-tool queries apart (AUROC of its confidence, accuracy of "matched") and latency per query.

--examples takes labelled queries in the same format and feeds the learning-from-use path: the queries
with tools become learned examples of those tools, and all of them (no-tool ones included) calibrate the
fusion and the threshold. They are kept in their own index, apart from the catalog's.

Examples:
  npx switchboard eval --catalog catalog/ --queries catalog/eval/queries.jsonl --json
  npx switchboard eval --catalog test/fixtures/metatool/catalog.json --queries test/fixtures/metatool/queries.jsonl --examples test/fixtures/metatool/examples.jsonl --top-k 5 --json
`;

const flags = {
  ...catalogFlags,
  queries: { type: "string" },
  examples: { type: "string" },
  "top-k": { type: "string" },
} as const;

export const command: Command = {
  usage,
  async run(argv) {
    const schema = catalogCommandOptions().extend({
      queries: z.string({ error: "is required: a JSON lines file of labelled queries" }).min(1),
      examples: z.string().min(1).optional(),
      "top-k": z.coerce.number().int("must be a whole number").min(1, "must be at least 1").default(5),
    });
    const { options, positionals } = parseCommand(argv, flags, schema);
    if (positionals.length > 0) throw new UsageError(`eval takes no arguments (got "${positionals[0]}")`);
    const { evaluate, openCatalogIndex, readQueryLines } = await loadApp();
    const queries = await readQueryLines(options.queries, true);
    const examples = options.examples ? await readQueryLines(options.examples, true) : undefined;
    const variant = options.examples
      ? `examples-${createHash("sha256")
          .update(await readFile(options.examples))
          .digest("hex")
          .slice(0, 12)}`
      : undefined;
    const progress = progressBar("indexing", options.json);
    const opened = await openCatalogIndex(await indexConfig(options), {
      ...(variant ? { variant } : {}),
      onProgress: (d, t) => progress.update(d, t),
    });
    progress.stop();
    try {
      const { router } = opened;
      if (examples && router.currentCalibration.fittedAt === undefined) {
        const pairs = examples.flatMap((e) => (e.tools ?? []).map((tool) => ({ query: e.query, tool })));
        await router.recordFeedbackMany(pairs);
        await router.calibrate(examples.map((e) => ({ query: e.query, tools: e.tools ?? [] })));
      }
      const judged: Judged[] = [];
      for (const q of queries) {
        const started = performance.now();
        const result = await router.route(q.query, { topK: options["top-k"] });
        judged.push({
          gold: q.tools ?? [],
          ranked: result.tools.map((t) => t.name),
          confidence: result.tools[0]?.score ?? -1,
          matched: result.matched,
          ms: performance.now() - started,
        });
      }
      const metrics = evaluate(judged, options["top-k"]);
      if (options.json) printJson(metrics);
      else
        for (const [name, value] of Object.entries(metrics))
          process.stdout.write(`${name.padEnd(16)} ${value ?? "n/a (needs both kinds of query)"}\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
