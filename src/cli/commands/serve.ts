import { z } from "zod";
import type { ReadyReport, Switchboard } from "../../app/index.ts";
import { ConfigError, createLogger, readEnv } from "../../config/index.ts";
import { parseCommand } from "../args.ts";
import { keepInspectorClosed } from "../inspector-signal.ts";
import { loadApp, loadServer } from "../load.ts";
import type { Command } from "../main.ts";
import { describeEmbedder, describeIndex, progressBar } from "../output.ts";

const usage = `
Usage:
  switchboard serve [--host HOST] [--port PORT] [--data DIR] [--catalog PATH]

Starts the HTTP service (API under /v1, MCP at /mcp, /openapi.json, /healthz, /readyz, /metrics). It binds
the port first and prints "switchboard listening on http://HOST:PORT" on stdout (a busy port is one error,
at once), then opens the index, the one \`switchboard index\`, \`route\` and \`calibrate\` use for the same
catalog and data folder, and prints "ready on http://HOST:PORT (N tools, index …); console http://HOST:PORT/console"; /readyz turns 200 then.
The bundled catalog starts from its shipped index; another catalog is embedded on first start, with a
progress bar, and loaded warm afterwards. Logs go to stderr: readable lines on a terminal, JSON elsewhere
(SWITCHBOARD_LOG_FORMAT=json|pretty), the per-request JSON lines written in batches at most 100 ms late. SIGTERM or SIGINT stop it gracefully: no new requests (503
shutting_down), in-flight calls drained for up to 10 s, then answered 503 shutting_down; state persisted.

Options:
  --host HOST      Interface to bind (SWITCHBOARD_HOST, default 127.0.0.1). Anything but loopback needs keys.
  --port PORT      Port (SWITCHBOARD_PORT, default 7070); 0 picks a free one.
  --data DIR       Data folder (SWITCHBOARD_DATA, default .switchboard).
  --catalog PATH   Catalog file or folder (SWITCHBOARD_CATALOG, default the bundled catalog/).

Environment:
  SWITCHBOARD_AGENT_KEYS, SWITCHBOARD_MAINTAINER_KEYS   comma-separated bearer keys; none = no auth (loopback only)
  SWITCHBOARD_RATE_LIMIT                                requests per minute per key (default 600)
  SWITCHBOARD_FEEDBACK_QUORUM                           agent keys that must agree before feedback is learned (3)
  SWITCHBOARD_AGENT_SYNTHESIS                           private (agent keys' tools wait for promotion) | off
  SWITCHBOARD_AGENT_SYNTHESIS_PER_HOUR                  tools written per agent key per hour (10)
  SWITCHBOARD_DATABASE_URL, SWITCHBOARD_REDIS_URL       shared stores for several replicas (docs/deploy.md)
  SWITCHBOARD_LLM_BASE_URL, _MODEL, _API_KEY            OpenAI-compatible endpoint for synthesis from intent

Examples:
  npm start
  npx switchboard serve --port 0 --data /tmp/sb
`;

const flags = {
  host: { type: "string" },
  port: { type: "string" },
  data: { type: "string" },
  catalog: { type: "string" },
} as const;
const optionsSchema = z.object({
  host: z.string().min(1).optional(),
  port: z.coerce
    .number()
    .int()
    .min(0, "must be a port number from 0 to 65535")
    .max(65535, "must be a port number from 0 to 65535")
    .optional(),
  data: z.string().min(1).optional(),
  catalog: z.string().min(1).optional(),
});

/** A bind failure in one sentence naming the address and what to do. */
function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return new ConfigError(
      `port ${port} on ${host} is already in use: stop the other process or choose another with --port (0 picks a free one)`,
    );
  if (code === "EACCES")
    return new ConfigError(
      `not allowed to listen on port ${port} of ${host}: choose a port above 1023 with --port`,
    );
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
    return new ConfigError(`cannot listen on ${host}: it is not an address of this machine (--host)`);
  return error as Error;
}

export const command: Command = {
  usage,
  async run(argv) {
    const { options } = parseCommand(argv, flags, optionsSchema);
    const [
      { configFrom, openSwitchboard },
      { CONSOLE_PATH, createHttpServer, DRAIN_DEADLINE_MS, isLoopbackHost },
    ] = await Promise.all([loadApp(), loadServer()]);
    const env = readEnv();
    const config = configFrom(env, options);
    const host = options.host ?? env.SWITCHBOARD_HOST;
    const keys = {
      agent: env.SWITCHBOARD_AGENT_KEYS ?? [],
      maintainer: env.SWITCHBOARD_MAINTAINER_KEYS ?? [],
    };
    if (!isLoopbackHost(host) && keys.agent.length + keys.maintainer.length === 0)
      throw new ConfigError(
        `refusing to serve on ${host} without API keys: set SWITCHBOARD_AGENT_KEYS and/or SWITCHBOARD_MAINTAINER_KEYS`,
      );
    const logger = createLogger(env.SWITCHBOARD_LOG_LEVEL, { buffered: true });
    keepInspectorClosed(logger);
    // The port is bound before anything slow starts, so a busy port fails at once and the process ends.
    const opened = Promise.withResolvers<Switchboard>();
    opened.promise.catch(() => {});
    const server = await createHttpServer({
      app: opened.promise,
      keys,
      rateLimit: env.SWITCHBOARD_RATE_LIMIT,
      ...(config.redis ? { redisUrl: config.redis } : {}),
      logger,
    });
    const port = options.port ?? env.SWITCHBOARD_PORT;
    let address: string;
    try {
      address = await server.listen({ host, port });
    } catch (error) {
      await server.close();
      throw listenError(error, host, port);
    }
    process.stdout.write(`switchboard listening on ${address}\n`);
    if (keys.agent.length + keys.maintainer.length === 0)
      logger.warn("no API keys configured: every local caller has the maintainer role");

    const progress = progressBar("Indexing the catalog", false);
    // A dense index filling in the background after ready reports through /readyz, not a bar among the logs.
    let starting = true;
    let app: Switchboard | undefined;
    let ready: ReadyReport;
    try {
      app = await openSwitchboard(config, {
        logger,
        index: false,
        serveWhileIndexing: true,
        onProgress: (done, total) => {
          if (starting) progress.update(done, total);
        },
      });
      ready = await app.ready();
    } catch (error) {
      opened.reject(error);
      await server.close();
      await app?.close().catch(() => {});
      throw error;
    } finally {
      starting = false;
      progress.stop();
    }
    logger.info({ tools: ready.tools, index: ready.index }, "ready");
    process.stdout.write(
      `ready on ${address} (${ready.tools} tools, ${describeIndex(ready.index)}, ${describeEmbedder(ready.embedder)}); console ${address}${CONSOLE_PATH}\n`,
    );
    opened.resolve(app);

    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once("SIGTERM", resolve);
      process.once("SIGINT", resolve);
    });
    logger.info({ signal }, "shutting down: draining in-flight requests");
    // Fastify's close stops accepting and waits for in-flight requests; at the drain deadline the server
    // answers the unfinished ones 503 shutting_down. Connections still open a moment later are cut.
    const deadline = setTimeout(() => server.server.closeAllConnections(), DRAIN_DEADLINE_MS + 2_000);
    await server.close();
    clearTimeout(deadline);
    await app.close();
    logger.info("stopped; state persisted");
    return 0;
  },
};
