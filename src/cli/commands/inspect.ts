import { z } from "zod";
import { readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { UsageError } from "../errors.ts";
import { loadApp } from "../load.ts";
import type { Command } from "../main.ts";
import { printJson } from "../output.ts";

const usage = `
Usage:
  switchboard inspect [--timeout-ms MS] [--json] <url>

Loads the page as its server sends it and in a headless browser, and compares the two: the text each
holds, whether the repeated items (lists, result rows) are in the server's HTML, framework markers. It
reports "static" (ctx.fetch with ctx.html will do) or "dynamic" (the tool needs the browser capability),
the candidate selectors for repeated items with a sample of each, and any request the page made outside its
own origin (blocked). Loopback and private addresses are refused unless SWITCHBOARD_EGRESS_ALLOW allows them.

Examples:
  npx switchboard inspect https://news.example.com/
  SWITCHBOARD_EGRESS_ALLOW=127.0.0.1 npx switchboard inspect --json http://127.0.0.1:8080/app
`;

const flags = { "timeout-ms": { type: "string" }, json: { type: "boolean" } } as const;

export const command: Command = {
  usage,
  async run(argv) {
    const schema = z.object({
      "timeout-ms": z.coerce.number().int("must be a whole number").positive().max(60_000).default(15_000),
      json: z.boolean().default(false),
    });
    const { options, positionals } = parseCommand(argv, flags, schema);
    const [url] = positionals;
    if (url === undefined || positionals.length > 1) throw new UsageError("give exactly one URL");
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      throw new UsageError(`"${url}" is not an http or https URL`);
    const { inspectUrl } = await loadApp();
    const env = readEnv();
    const report = await inspectUrl(
      { url, timeoutMs: options["timeout-ms"] },
      { egressAllow: env.SWITCHBOARD_EGRESS_ALLOW, chromium: env.SWITCHBOARD_CHROMIUM },
    );
    if (options.json) printJson(report);
    else {
      process.stdout.write(`${report.verdict}: ${report.reasons.join("; ")}\n`);
      process.stdout.write(
        `text: ${report.static.textLength} characters in the server's HTML, ${report.rendered.textLength} rendered\n`,
      );
      if (report.frameworks.length > 0) process.stdout.write(`markers: ${report.frameworks.join(", ")}\n`);
      for (const candidate of report.candidates)
        process.stdout.write(
          `  ${candidate.selector} (${candidate.count}${candidate.inStatic ? ", in the server's HTML" : ", rendered only"}): ${candidate.sample.map((item) => JSON.stringify(item.text)).join(", ")}\n`,
        );
      for (const blocked of report.blocked)
        process.stdout.write(`  blocked ${blocked.url}: ${blocked.reason}\n`);
    }
    return 0;
  },
};
