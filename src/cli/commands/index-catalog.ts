import { parseCommand } from "../args.ts";
import { catalogCommandOptions, catalogFlags, indexConfig } from "../catalog-options.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson, progressBar } from "../output.ts";

const usage = `
Usage:
  switchboard index [--catalog <file|dir>] [--data <dir>] [--embedder use-lite|transformers] [--model M] [--json]

Builds the search index of a catalog in the data folder (default $SWITCHBOARD_DATA or .switchboard), or
brings an existing one up to date, embedding only tools whose text changed. It is the index \`serve\` and
\`mcp\` use for the same catalog and data folder, over the same tools (the catalog plus tools put through
the API). A damaged index file or one built by another embedder is rebuilt. --catalog defaults to the
bundled catalog, whose shipped index gives a fresh data folder a head start.

Examples:
  npx switchboard index
  npx switchboard index --catalog test/fixtures/metatool/catalog.json --json
`;

export const command: Command = {
  usage,
  async run(argv) {
    const { options, positionals } = parseCommand(argv, catalogFlags, catalogCommandOptions());
    if (positionals.length > 0) throw new UsageError(`index takes no arguments (got "${positionals[0]}")`);
    const { openCatalogIndex } = await loadApp();
    const started = performance.now();
    const progress = progressBar("embedding", options.json);
    const opened = await openCatalogIndex(await indexConfig(options), {
      onProgress: (done, total) => progress.update(done, total),
    });
    progress.stop();
    const { router, embedder } = opened;
    await opened.close();
    const summary = {
      catalog: options.catalog,
      tools: router.size,
      entries: router.report.entries,
      action: router.report.action,
      ...(router.report.reason ? { reason: router.report.reason } : {}),
      embedded: router.report.embedded,
      seeded: opened.seeded,
      embedder: embedder.id,
      calibration: router.currentCalibration.source,
      ms: Math.round(performance.now() - started),
    };
    if (options.json) printJson(summary);
    else {
      if (summary.reason) process.stderr.write(`note: ${summary.reason}; rebuilt\n`);
      process.stdout.write(
        `${summary.action}: ${summary.tools} tools, ${summary.entries} vectors (${summary.embedded} embedded now) with ${summary.embedder} in ${summary.ms} ms\n`,
      );
    }
    return 0;
  },
};
