import { z } from "zod";
import { createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { keepInspectorClosed } from "../inspector-signal.ts";
import { loadApp, loadServer } from "../load.ts";
import type { Command } from "../main.ts";

const usage = `
Usage:
  switchboard mcp [--data DIR] [--catalog PATH]

Serves the whole catalog to an MCP client over stdio through four tools: search_tools (route),
call_tool (execute through the dispatcher), route_and_execute (asking the user for a missing value when
the client supports elicitation) and synthesize_tool. Stdout carries only the protocol; logs go to stderr. The same server is reachable over Streamable HTTP at /mcp of \`switchboard serve\`.

Example client configuration:
  { "command": "npx", "args": ["switchboard", "mcp"], "cwd": "/path/to/switchboard" }
`;

const flags = { data: { type: "string" }, catalog: { type: "string" } } as const;
const optionsSchema = z.object({ data: z.string().min(1).optional(), catalog: z.string().min(1).optional() });

export const command: Command = {
  usage,
  async run(argv) {
    const { options } = parseCommand(argv, flags, optionsSchema);
    const [{ configFrom, openSwitchboard }, { createMcpServer }, { StdioServerTransport }] =
      await Promise.all([loadApp(), loadServer(), import("@modelcontextprotocol/sdk/server/stdio.js")]);
    const env = readEnv();
    const logger = createLogger(env.SWITCHBOARD_LOG_LEVEL);
    keepInspectorClosed(logger);
    // The protocol is up before the catalog and index load, so a client's initialize is answered at once;
    // tool calls wait for what they need (routing for the index, calls only for the catalog).
    const opening = openSwitchboard(configFrom(env, options), {
      logger,
      index: false,
      serveWhileIndexing: true,
    });
    // Over stdio the client is the local user who started the process: the maintainer.
    const server = createMcpServer(opening, { allowSynthesis: true });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
      process.stdin.once("end", resolve);
      process.once("SIGTERM", resolve);
      process.once("SIGINT", resolve);
    });
    await server.connect(transport);
    let failure: Error | undefined;
    const app = await opening.catch((error: Error) => {
      failure = error;
      return undefined;
    });
    const ready = await app?.ready().catch((error: Error) => {
      failure = error;
      return undefined;
    });
    if (ready) logger.info({ tools: ready.tools, index: ready.index }, "MCP server ready on stdio");
    else {
      await server.close();
      await app?.close();
      throw failure;
    }
    await closed;
    await server.close();
    await app?.close();
    return 0;
  },
};
