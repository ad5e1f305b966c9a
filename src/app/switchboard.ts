// The composition root: it opens the stores, the registry, the index and the tool runtime, and wires the
// services that the CLI, the HTTP API and the MCP server share (each a module of its own: tool-directory,
// catalog-writes, execution, routing, synthesis, route-and-execute-service, feedback). Catalog changes
// reach the router incrementally through the registry's change events (live-index.ts).

import type { ToolRegistry } from "../catalog/index.ts";
import { createLogger, type Logger, nodeTooOld } from "../config/index.ts";
import { observeCalls } from "./call-observers.ts";
import { type CatalogIndex, openConfiguredIndex, openConfiguredRegistry } from "./catalog-index.ts";
import { CatalogWrites } from "./catalog-writes.ts";
import { parseConfig, type SwitchboardConfig, type SwitchboardOptions } from "./config.ts";
import { Execution } from "./execution.ts";
import { ExecutionHistory } from "./execution-history.ts";
import { Feedback } from "./feedback.ts";
import { LiveIndex } from "./live-index.ts";
import { Metrics } from "./metrics.ts";
import { inspect } from "./page-inspection.ts";
import { routeAndExecuteWith } from "./route-and-execute-service.ts";
import { Routing } from "./routing.ts";
import { openScaleOut, type ScaleOut, storeProblem } from "./scale-out.ts";
import { SynthesisService } from "./synthesis.ts";
import { ToolDirectory } from "./tool-directory.ts";
import { openToolRuntime, startSandbox } from "./tool-runtime.ts";
import type { Switchboard } from "./types.ts";

export interface OpenOptions {
  /** Pino logger; by default warnings and errors go to stderr. */
  logger?: Logger;
  /** Index building progress, on first start or after the catalog changed while stopped. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Load (or build) the index before resolving, so that the answer is routable at once. False defers it to
   * `ready()` or the first route: `switchboard exec` runs calls without loading the embedding model, and the
   * servers answer (MCP initialize, /healthz) while it loads.
   */
  index?: boolean;
  /**
   * Resolve only once a sandbox host is ready, so that a host's cold start does not count against the
   * first calls' deadlines (`switchboard exec`, which runs its calls at once and exits).
   */
  waitForSandbox?: boolean;
  /** Sandbox host processes to keep (default: one per core); `exec` starts only as many as it has calls. */
  sandboxHosts?: number;
  /**
   * For the servers: when the index must embed many texts (a large catalog's first start), be ready once BM25
   * is built and fill the dense index in the background; routes, `ready()` and /readyz say so until it is
   * complete, and nothing is synthesized meanwhile. One-shot commands leave it off and wait.
   */
  serveWhileIndexing?: boolean;
}

/** Node 24 runs the TypeScript as it is; an older Node fails at once with what to run instead. */
function refuseOldNode(): void {
  const tooOld = nodeTooOld();
  if (tooOld)
    throw new Error(
      `${tooOld}; run your program with the Node 24 npm installs beside Switchboard (npx node app.js), or require it with "engines": { "node": ">=24" }.`,
    );
}

/** The configured index, logged when ready and following what other processes learn or fit. */
async function openFollowedIndex(
  config: SwitchboardConfig,
  scaleOut: ScaleOut,
  registry: ToolRegistry,
  logger: Logger,
  { onProgress, serveWhileIndexing }: OpenOptions,
): Promise<CatalogIndex> {
  const opened = await openConfiguredIndex(config, scaleOut, registry, {
    ...(onProgress ? { onProgress } : {}),
    ...(serveWhileIndexing ? { serveWhileIndexing: true } : {}),
  });
  logger.info(
    { index: opened.router.report, seeded: opened.seeded, tools: registry.list().length },
    "index ready",
  );
  scaleOut.followIndex(opened.router, logger);
  opened.router.denseComplete.then(
    () => {
      if (opened.router.report.embedded > 0 && opened.router.dense.state === "complete")
        logger.info({ index: opened.router.report }, "dense index complete");
    },
    (error: unknown) => logger.error({ err: error }, "the dense index failed to fill; routes use BM25"),
  );
  return opened;
}

/**
 * Opens the catalog (plus the data folder's overlay), the dispatcher and, unless deferred, the index; see
 * README "Use it as a library".
 */
export async function openSwitchboard(
  settings: SwitchboardOptions = {},
  options: OpenOptions = {},
): Promise<Switchboard> {
  refuseOldNode();
  const config = parseConfig(settings);
  const logger = options.logger ?? createLogger("warn");
  // Its hosts boot while the catalog is read.
  const started = startSandbox(options.sandboxHosts);
  const scaleOut = await openScaleOut(config).catch((error: unknown) => {
    started.sandbox.close();
    throw error;
  });
  const { store } = scaleOut;
  // A failed start must not leave database and Redis connections, or sandbox hosts, holding the process open.
  const orClose = (error: unknown) => {
    started.sandbox.close();
    return scaleOut.close().then(() => Promise.reject(error));
  };
  const registry = await openConfiguredRegistry(config, store).catch(orClose);
  scaleOut.followCatalog(registry, logger);
  const index = new LiveIndex({
    registry,
    open: () => openFollowedIndex(config, scaleOut, registry, logger, options),
    embedAhead: (texts) => scaleOut.embedAhead(texts),
    logger,
  });
  if (options.index !== false) await index.open().catch(orClose);
  const runtime = await openToolRuntime(config, registry, store, { ...options, started });
  const { dispatcher } = runtime;
  const metrics = new Metrics(() => dispatcher.breakers());
  scaleOut.shareDispatcher(dispatcher, metrics);
  const history = new ExecutionHistory();
  observeCalls(dispatcher, metrics, history);

  const directory = new ToolDirectory(registry);
  const writes = new CatalogWrites({
    registry,
    directory,
    index,
    requireBrowser: runtime.requireBrowser,
    logger,
  });
  const execution = new Execution({ registry, directory, dispatcher, scaleOut });
  const routing = new Routing({ registry, directory, index, metrics, config });
  const synthesis = new SynthesisService({ config, registry, writes, index, runtime, execution, logger });
  const feedback = new Feedback({ store, quorum: config.feedbackQuorum, registry, directory, index });
  return {
    ready: () => index.ready(),
    route: (request, viewer) => routing.route(request, viewer),
    execute: (calls, executeOptions) => execution.execute(calls, executeOptions),
    routeAndExecute: routeAndExecuteWith({ config, routing, directory, execution, synthesis }),
    // It may register a tool: a database that is away is a 503 store_unavailable, not a failure here.
    synthesize: (request, viewer) =>
      synthesis.synthesize(request, viewer).catch((error) => Promise.reject(storeProblem(error))),
    listTools: (viewer) => directory.tools(viewer),
    getTool: (name, viewer) => directory.get(name, viewer),
    toolListing: (viewer) => directory.listings(viewer),
    promoteTool: (name, by) => writes.promote(name, by),
    putTool: (tool) => writes.put(tool),
    deleteTool: (name, by) => writes.delete(name, by),
    feedback: (pairs, voter) => feedback.give(pairs, voter),
    feedbackVotes: () => feedback.votes(),
    evaluateRouting: (request) => routing.evaluate(request),
    inspect: (request) => inspect(runtime.browser, request),
    executions: (filter) => history.list(dispatcher.executions(), filter),
    breakers: () => dispatcher.breakers(),
    stores: () => scaleOut.health(),
    embedder: () => index.embedder(),
    denseIndex: () => index.dense(),
    metrics,
    async close() {
      await index.settled();
      await dispatcher.close();
      await index.close();
      await runtime.close();
      await scaleOut.close();
    },
  };
}
