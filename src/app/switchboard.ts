// The composition root: registry → router → dispatcher → bindings → synth, wired once and shared by the
// CLI, the HTTP API and the MCP server. Catalog changes reach the router incrementally through the
// registry's change events; nothing here re-implements a subsystem.
import { randomUUID } from "node:crypto";
import {
  bindingArgumentIssues,
  closeProviders,
  type Grants,
  OPERATOR_GRANTS,
  providersFor,
  toolDestinations,
} from "../bindings/index.ts";
import {
  BrowserFailure,
  BrowserSupervisor,
  type InspectReport,
  type InspectRequest,
  inspectPage,
} from "../browser/index.ts";
import {
  type Capabilities,
  didYouMean,
  type RegistryEntry,
  type SynthesisProvenance,
  type Tool,
  ToolValidationError,
  unknownToolMessage,
  validateAgainstSchema,
} from "../catalog/index.ts";
import { createLogger, type Logger, nodeTooOld } from "../config/index.ts";
import { Dispatcher, estimateTokens } from "../dispatch/index.ts";
import { createEgressPolicy, isAllowedUrl } from "../egress/index.ts";
import type { Embedder } from "../embed/index.ts";
import { Router } from "../router/index.ts";
import { memorySessionStore, SessionContexts } from "../session/index.ts";
import {
  type IntentOutcome,
  type IntentRequest,
  type LlmConfig,
  LlmError,
  Sandbox,
  type SynthesisOutcome,
  synthesizeFromIntent,
  synthesize as synthesizeTool,
} from "../synth/index.ts";
import { AgentSynthesisGate } from "./agent-synthesis.ts";
import { type CatalogIndex, openConfiguredIndex, openConfiguredRegistry } from "./catalog-index.ts";
import { parseConfig, type SwitchboardOptions } from "./config.ts";
import { CatalogTokens } from "./context.ts";
import { ExecutionHistory } from "./execution-history.ts";
import { FeedbackGate, type FeedbackOutcome, type Voter } from "./feedback-gate.ts";
import { formatDefinition, fromStrictArguments, providerToolName } from "./formats.ts";
import { Metrics } from "./metrics.ts";
import {
  type FeedbackPair,
  type RouteAndExecuteRequest,
  type RouteRequest,
  routeRequestSchema,
  type SynthesizeRequest,
  type ToolCall,
} from "./requests.ts";
import type { ToolListing } from "./responses.ts";
import { answerRequest } from "./route-and-execute/request.ts";
import {
  evaluateRouting,
  MAX_EVAL_QUERIES,
  type RouteEvaluation,
  type RouteEvaluationRequest,
  readCatalogLabelledSet,
} from "./route-evaluation.ts";
import { openScaleOut, storeProblem } from "./scale-out.ts";
import { canUse, provenanceView, routesTo, type Viewer } from "./tool-access.ts";
import { recordToolSpan } from "./tracing.ts";
import {
  AppError,
  type CallResult,
  type EmbedderHealth,
  type ExecuteOptions,
  type ReadyReport,
  type RouteAndExecuteOptions,
  type RouteAndExecuteResponse,
  type RouteResponse,
  type Step,
  type Switchboard,
  type SynthesisResponse,
} from "./types.ts";

/** Bounds of session contexts: a context is a few settings (a location, a token), not a document. */
const SESSION_BOUNDS = { maxContextBytes: 16_384, ttlMs: 30 * 60_000 };
// Per API key (store.ts): one key's sessions never evict another's.
const SESSION_STORE = { maxSessions: 2_000, maxTotalBytes: 4_000_000 };

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

/** A tool as listed to `viewer`, with where it came from (ToolListing in responses.ts). */
function listing(entry: RegistryEntry, viewer: Viewer | undefined): ToolListing {
  const { tool } = entry;
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    ...(tool.category !== undefined ? { category: tool.category } : {}),
    ...(tool.version !== undefined ? { version: tool.version } : {}),
    origin: entry.origin,
    ...(entry.updatedAt !== undefined ? { updatedAt: entry.updatedAt } : {}),
    ...(entry.synthesis ? { synthesis: provenanceView(entry.synthesis, entry, viewer) } : {}),
  };
}

/** A call that may change something: run at most once across replicas when they share Redis. */
const isWrite = (tool: Tool | undefined) =>
  (tool?.policy?.kind ?? (tool?.annotations?.readOnlyHint ? "read" : "write")) !== "read";

/**
 * Opens the catalog (plus the data folder's overlay), the dispatcher and, unless deferred, the index; see
 * README "Use it as a library".
 */
export async function openSwitchboard(
  settings: SwitchboardOptions = {},
  options: OpenOptions = {},
): Promise<Switchboard> {
  const tooOld = nodeTooOld();
  if (tooOld)
    throw new Error(
      `${tooOld}; run your program with the Node 24 npm installs beside Switchboard (npx node app.js), or require it with "engines": { "node": ">=24" }.`,
    );
  const config = parseConfig(settings);
  const logger = options.logger ?? createLogger("warn");
  const scaleOut = await openScaleOut(config);
  const { store } = scaleOut;
  const { security } = config;
  // A failed start must not leave database and Redis connections holding the process open.
  const orClose = async (error: unknown): Promise<never> => {
    await scaleOut.close();
    throw error;
  };
  const registry = await openConfiguredRegistry(config, store).catch(orClose);
  scaleOut.followCatalog(registry, logger);
  // The operator's catalog files are trusted with what they name: their destinations join the egress
  // allowlist, and their bindings may start their commands and read the secrets they reference.
  const operatorTools = registry.entries().filter((entry) => entry.origin === "catalog");
  const egress = createEgressPolicy({
    allow: [...security.egressAllow, ...operatorTools.flatMap((entry) => toolDestinations(entry.tool))],
  });
  const apiGrants: Grants = { commands: security.mcpCommands, secrets: security.toolSecrets, files: false };
  const grantsFor = (tool: Tool): Grants => {
    const entry = registry.entry(tool.name);
    return entry?.origin === "catalog" && entry.tool === tool ? OPERATOR_GRANTS : apiGrants;
  };
  let opening: Promise<CatalogIndex> | undefined;
  let openedIndex: CatalogIndex | undefined;
  const index = (): Promise<CatalogIndex> => {
    opening ??= openConfiguredIndex(config, scaleOut, registry, {
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.serveWhileIndexing ? { serveWhileIndexing: true } : {}),
    }).then((opened) => {
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
      openedIndex = opened;
      return opened;
    });
    return opening;
  };
  if (options.index !== false) await index().catch(orClose);
  const browser = new BrowserSupervisor({
    // The same policy as ctx.fetch and http bindings: the operator's list and its catalog tools' origins.
    egress,
    ...(config.browser.chromium ? { executable: config.browser.chromium } : {}),
  });
  const sandbox = new Sandbox({ egress, browser, hosts: options.sandboxHosts });
  const dispatcher = new Dispatcher({
    tools: registry,
    providers: (tool) => providersFor(tool, { sandbox, egress, grants: grantsFor(tool) }),
    store,
    options: config.dispatch,
  });
  await dispatcher.ready();
  // A host that cannot start is not this call's failure: the sandbox calls then fail with its reason.
  if (options.waitForSandbox) await sandbox.whenReady().catch(() => undefined);
  // Session contexts live where every replica that may answer the session finds them: in Redis when
  // SWITCHBOARD_REDIS_URL is set, otherwise in this process.
  const sessions = new SessionContexts(
    scaleOut.sessions ?? memorySessionStore(SESSION_STORE),
    SESSION_BOUNDS,
  );
  const metrics = new Metrics(() => dispatcher.breakers());
  scaleOut.shareDispatcher(dispatcher, metrics);
  const history = new ExecutionHistory();
  dispatcher.on("call", (result) => {
    history.record(result);
    metrics.toolDuration.observe({ tool: result.name, status: result.status }, result.timing.totalMs / 1000);
    recordToolSpan(result);
  });
  dispatcher.on("retry", (notice) => metrics.retries.inc({ tool: notice.tool }));
  dispatcher.on("fallback", (notice) => metrics.fallbacks.inc({ tool: notice.tool }));
  dispatcher.on("rejected", (notice) => metrics.rejections.inc({ tool: notice.tool, reason: notice.class }));

  const tokens = new CatalogTokens(() => registry.list(), estimateTokens);
  // Index updates run one at a time in change order, so a put followed by a delete cannot be reordered.
  // Catalog writes wait for their update, so a tool answered as stored is also routable.
  let indexing: Promise<void> = Promise.resolve();
  registry.on("change", (change) => {
    tokens.invalidate();
    // An index not opened yet reads the registry as it is when it opens: nothing to replay.
    if (!opening) return;
    indexing = indexing
      .then(async () => {
        const { router } = await index();
        if (change.type === "put") await router.upsert(change.tool);
        else await router.remove(change.tool.name);
      })
      .catch((error: Error) => logger.error({ err: error, tool: change.tool.name }, "index update failed"));
  });

  /** The entry of a tool `viewer` may use; another key's pending tool is as unknown as a missing one. */
  const usable = (name: string, viewer: Viewer | undefined): RegistryEntry | undefined => {
    const entry = registry.entry(name);
    return entry && canUse(entry, viewer) ? entry : undefined;
  };
  const toolFor = (name: string, viewer: Viewer | undefined) => usable(name, viewer)?.tool;

  /** The catalog name, or the sanitised alias an OpenAI/Anthropic agent saw in a route answer. */
  const resolveName = (name: string, viewer: Viewer | undefined): string | undefined => {
    if (usable(name, viewer)) return name;
    return registry
      .entries()
      .find((entry) => providerToolName(entry.tool.name) === name && canUse(entry, viewer))?.tool.name;
  };

  /** What routing must not offer `viewer`: other keys' pending tools (none, usually: no filter at all). */
  const hiddenFrom = (viewer: Viewer | undefined): ((name: string) => boolean) | undefined => {
    const hidden = registry.pending().filter((entry) => !routesTo(entry, viewer));
    if (hidden.length === 0) return undefined;
    const names = new Set(hidden.map((entry) => entry.tool.name));
    return (name) => names.has(name);
  };

  async function route(request: RouteRequest, viewer?: Viewer): Promise<RouteResponse> {
    const parsed = routeRequestSchema.safeParse(request);
    if (!parsed.success)
      throw new AppError(
        "invalid",
        `invalid route request: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const { query, topK, threshold, categories, format } = parsed.data;
    const end = metrics.routeDuration.startTimer();
    const { router } = await index();
    const hide = hiddenFrom(viewer);
    const result = await router.route(query, {
      topK,
      ...(threshold !== undefined ? { threshold } : {}),
      ...(categories ? { categories } : {}),
      ...(hide ? { hide } : {}),
    });
    end({ matched: String(result.matched) });
    let returnedTokens = 0;
    const tools = result.tools.flatMap((hit) => {
      const tool = registry.get(hit.name);
      if (!tool) return [];
      returnedTokens += tokens.of(tool, format);
      return [{ name: hit.name, score: hit.score, why: hit.why, definition: formatDefinition(tool, format) }];
    });
    return {
      query,
      matched: result.matched,
      threshold: result.threshold,
      notices: result.notices,
      format,
      tools,
      context: tokens.saved(returnedTokens, format),
    };
  }

  async function execute(calls: ToolCall[], options: ExecuteOptions = {}): Promise<CallResult[]> {
    // A call to a tool this caller cannot use fails alone (unknown_tool, with the nearest names it can
    // use); the rest of the batch runs. It never reaches the dispatcher, which knows every key's tools.
    const resolved = calls.map((call) => {
      const name = resolveName(call.name, options.viewer);
      if (!name) return { call, known: false };
      const schema = registry.get(name)?.inputSchema;
      const args = schema
        ? (fromStrictArguments(schema, call.arguments) as Record<string, unknown>)
        : call.arguments;
      return { call: { ...call, name, arguments: args }, known: true };
    });
    const runnable = resolved.filter((r) => r.known).map((r) => r.call);
    const ran = runnable.length > 0 ? await executeKnown(runnable, options) : [];
    let next = 0;
    return resolved.map((r) =>
      r.known ? (ran[next++] as CallResult) : unknownToolResult(r.call, options.viewer),
    );
  }

  const visibleNames = (viewer: Viewer | undefined) =>
    registry
      .entries()
      .filter((entry) => canUse(entry, viewer))
      .map((entry) => entry.tool.name);

  function unknownToolResult(call: ToolCall, viewer: Viewer | undefined): CallResult {
    return {
      id: call.id,
      name: call.name,
      status: "failed",
      error: { class: "unknown_tool", message: unknownToolMessage(call.name, visibleNames(viewer)) },
      provenance: { attempts: 0, stale: false, breakers: {} },
      timing: { queuedMs: 0, runMs: 0, totalMs: 0 },
    };
  }

  async function executeKnown(resolved: ToolCall[], options: ExecuteOptions): Promise<CallResult[]> {
    const { signal, session } = options;
    // The dispatcher's key: the server's caller id, else the viewer's (a program using the library).
    const caller = options.caller ?? options.viewer?.id;
    // Without a session a batch gets an empty context of its own: its changes reach no one.
    const run = (context: Record<string, unknown>) =>
      scaleOut.executeOnce(
        resolved,
        (call) => isWrite(registry.get(call.name)),
        (mine) =>
          dispatcher.execute(mine, caller === undefined ? { signal, context } : { signal, context, caller }),
        signal,
      );
    if (session === undefined) return run({});
    const { value, warning } = await sessions
      .run(session, run)
      .catch((error) => Promise.reject(storeProblem(error)));
    if (!warning) return value;
    return value.map((r) => ({
      ...r,
      provenance: { ...r.provenance, warnings: [...(r.provenance.warnings ?? []), warning] },
    }));
  }

  /** A tool granted `browser` is refused, with how to install Chromium, where Chromium is missing. */
  async function requireBrowserFor(capabilities: Capabilities | undefined): Promise<void> {
    if (capabilities?.browser === undefined) return;
    const missing = await browser.unavailable();
    if (missing !== undefined) throw new AppError("unavailable", missing);
  }

  async function register(tool: Tool, origin: "api"): Promise<Tool> {
    if (tool.binding?.type === "sandbox") await requireBrowserFor(tool.binding.capabilities);
    try {
      // Stored before the change is announced, so the other replicas find this tool's vectors.
      if (opening) await scaleOut.embedAhead(Router.textsOf(tool));
      const { tool: stored } = await registry.put(tool, origin);
      await indexing;
      return stored;
    } catch (error) {
      if (error instanceof ToolValidationError) throw new AppError("invalid", error.message, error.issues);
      throw storeProblem(error);
    }
  }

  const isTaken = (name: string) => registry.get(name) !== undefined;

  /**
   * The registry as synthesis sees it: what it registers carries `provenance` (pending for an agent key).
   * Stored embeddings first, as register() does, so other replicas find the new tool's vectors.
   */
  const registryFor = (provenance: SynthesisProvenance) => ({
    admit: (tool: Tool) => registry.admit(tool),
    async put(tool: Tool, origin: "synthesized") {
      if (opening) await scaleOut.embedAhead(Router.textsOf(tool));
      return registry.put(tool, origin, provenance);
    },
  });

  /** The provenance of a tool synthesized now for `viewer`: an agent key's stays its own until promoted. */
  const provenanceFor = (viewer: Viewer | undefined, request: string): SynthesisProvenance => ({
    status: viewer?.role === "agent" ? "pending" : "published",
    ...(viewer ? { owner: viewer.id } : {}),
    at: new Date().toISOString(),
    request: request.slice(0, 4000),
  });

  async function inspect(request: InspectRequest): Promise<InspectReport> {
    try {
      return await inspectPage(browser, request);
    } catch (error) {
      if (!(error instanceof BrowserFailure)) throw error;
      const callerFault = error.class === "invalid" || error.class === "blocked";
      throw new AppError(callerFault ? "invalid" : "unavailable", error.message);
    }
  }

  /**
   * Inspection reports of the pages an intent names, for the LLM writing its tool: only URLs the request
   * already grants (browser or fetch allowlists), so an intent cannot send the service anywhere new. A
   * page that cannot be inspected is left out; the tool's own test run will meet the same problem.
   */
  async function pagesNamedIn(request: IntentRequest): Promise<{ url: string; report: InspectReport }[]> {
    const text = `${request.intent ?? ""} ${request.description ?? ""}`;
    const allowed = [
      ...(request.capabilities?.browser?.allow ?? []),
      ...(request.capabilities?.fetch?.allow ?? []),
    ];
    const urls = [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])]
      .map((url) => url.replace(/[.,;:!?)]+$/, ""))
      .filter((url) => URL.canParse(url) && isAllowedUrl(new URL(url), allowed))
      .slice(0, 2);
    const reports = await Promise.all(
      urls.map((url) =>
        inspect({ url }).then(
          (report) => ({ url, report }),
          () => undefined,
        ),
      ),
    );
    return reports.filter((entry) => entry !== undefined);
  }

  /** The configured LLM writes the tool; an unreachable endpoint is the service's problem (503), not the caller's. */
  async function fromIntent(
    request: IntentRequest,
    llm: LlmConfig,
    provenance: SynthesisProvenance,
  ): Promise<IntentOutcome> {
    try {
      const pages = await pagesNamedIn(request);
      return await synthesizeFromIntent(pages.length > 0 ? { ...request, pages } : request, {
        sandbox,
        registry: registryFor(provenance),
        llm,
        isTaken,
      });
    } catch (error) {
      if (error instanceof LlmError) throw new AppError("unavailable", error.message);
      throw error;
    }
  }

  async function synthesize(request: SynthesizeRequest, viewer?: Viewer): Promise<SynthesisResponse> {
    await requireBrowserFor(request.capabilities as Capabilities | undefined);
    const { code } = request;
    // Only maintainer keys reach this (the API refuses agent keys): what it writes is published at once.
    const provenance = provenanceFor(viewer?.role === "agent" ? undefined : viewer, request.description);
    let outcome: SynthesisOutcome;
    if (code !== undefined)
      outcome = await synthesizeTool({ ...request, code }, { sandbox, registry: registryFor(provenance) });
    else if (config.llm)
      outcome = await fromIntent(
        {
          name: request.name,
          description: request.description,
          inputSchema: request.inputSchema,
          ...(request.outputSchema ? { outputSchema: request.outputSchema } : {}),
          ...(request.testArgs ? { arguments: request.testArgs } : {}),
          ...(request.examples ? { examples: request.examples } : {}),
          ...(request.category ? { category: request.category } : {}),
          // Checked by the synthesizer's definition stage like any other field.
          ...(request.capabilities ? { capabilities: request.capabilities as Capabilities } : {}),
        },
        config.llm,
        provenance,
      );
    else
      throw new AppError(
        "invalid",
        "body.code is required: no LLM is configured (SWITCHBOARD_LLM_BASE_URL, SWITCHBOARD_LLM_MODEL) to write it",
      );
    await indexing;
    return outcome.ok
      ? { ok: true, tool: outcome.tool, tests: outcome.tests }
      : { ok: false, stage: outcome.stage, kind: outcome.kind, errors: outcome.errors };
  }

  async function runValidated(
    tool: Tool,
    args: Record<string, unknown>,
    steps: Step[],
    session: string | undefined,
    owner: string | undefined,
    viewer: Viewer | undefined,
  ) {
    const issues = [...validateAgainstSchema(tool.inputSchema, args), ...bindingArgumentIssues(tool, args)];
    if (issues.length > 0) {
      steps.push({ step: "validate", tool: tool.name, ok: false, issues, inputSchema: tool.inputSchema });
      return { status: "invalid_arguments" as const, tool: tool.name, steps };
    }
    steps.push({ step: "validate", tool: tool.name, ok: true });
    const id = randomUUID();
    const [scoped] = await execute(
      [{ id: owner === undefined ? id : `${owner}/${id}`, name: tool.name, arguments: args }],
      {
        session,
        ...(viewer ? { viewer } : {}),
        ...(owner === undefined ? {} : { caller: owner }),
      },
    );
    if (!scoped) throw new Error("the dispatcher returned no result");
    const result = { ...scoped, id };
    steps.push({ step: "execute", tool: tool.name, arguments: args, result });
    return {
      status: result.status === "completed" ? ("completed" as const) : ("failed" as const),
      tool: tool.name,
      result,
      steps,
    };
  }

  const agentSynthesis = new AgentSynthesisGate(config.agentSynthesis);

  /**
   * Nothing fits: with an LLM configured, write the tool, register it, then run it like any other. For an
   * agent key the tool is private and pending (tool-access.ts), within the key's synthesis budget.
   */
  async function synthesizeAndRun(
    request: RouteAndExecuteRequest,
    steps: Step[],
    session: string | undefined,
    owner: string | undefined,
    viewer: Viewer | undefined,
  ): Promise<RouteAndExecuteResponse> {
    if (!config.llm) return { status: "no_match", steps };
    // A match the dense half would find must not be written again as a new tool.
    const dense = openedIndex?.router.dense;
    if (dense && dense.state !== "complete") {
      steps.push({
        step: "synthesize",
        ok: false,
        skipped: "indexing",
        detail: "the index is still filling; nothing is synthesized until every tool can be matched",
      });
      return { status: "no_match", steps };
    }
    let release = () => {};
    if (viewer?.role === "agent") {
      const pending = registry.pending().filter((entry) => entry.synthesis?.owner === viewer.id).length;
      const taken = agentSynthesis.take(viewer.id, pending);
      if (typeof taken !== "function") {
        steps.push({ step: "synthesize", ok: false, skipped: taken.reason, detail: taken.detail });
        return { status: "no_match", steps };
      }
      release = taken;
    }
    let outcome: IntentOutcome;
    try {
      outcome = await fromIntent(
        { intent: request.query, ...(request.arguments ? { arguments: request.arguments } : {}) },
        config.llm,
        provenanceFor(viewer, request.query),
      );
    } finally {
      release();
    }
    if (!outcome.ok) {
      steps.push({ step: "synthesize", ok: false, stage: outcome.stage, errors: outcome.errors });
      return { status: "synthesis_failed", steps };
    }
    await indexing;
    const status = viewer?.role === "agent" ? "pending" : "published";
    logger.info(
      { tool: outcome.tool.name, status, owner: viewer?.id ?? "local" },
      "tool synthesized for a route-and-execute request",
    );
    steps.push({ step: "synthesize", ok: true, tool: outcome.tool.name, rounds: outcome.rounds });
    steps.push({ step: "register", tool: outcome.tool.name, version: outcome.tool.version ?? 1, status });
    return runValidated(outcome.tool, request.arguments ?? {}, steps, session, owner, viewer);
  }

  /** Every call the request runs (one per intent) runs in `session`, in turn, so each sees the last's changes. */
  const routeAndExecute = (
    request: RouteAndExecuteRequest,
    { session, ask, owner, viewer }: RouteAndExecuteOptions = {},
  ): Promise<RouteAndExecuteResponse> => {
    const length = request.query.trim().length;
    if (length > config.maxRequestChars)
      return Promise.reject(
        new AppError(
          "invalid",
          `query: is ${length} characters long, more than the ${config.maxRequestChars} this service takes (SWITCHBOARD_MAX_REQUEST_CHARS)`,
        ),
      );
    return answerRequest(request, {
      route: (routed) => route(routed, viewer),
      getTool: (name) => toolFor(name, viewer),
      run: (tool, args, steps) => runValidated(tool, args, steps, session, owner, viewer),
      noMatch: (unmatched, steps) => synthesizeAndRun(unmatched, steps, session, owner, viewer),
      ...(config.llm ? { llm: config.llm } : {}),
      ...(ask ? { ask } : {}),
    });
  };

  const feedbackGate = new FeedbackGate(store, config.feedbackQuorum);
  async function feedback(pairs: FeedbackPair[], voter: Voter): Promise<FeedbackOutcome> {
    const unknown = pairs.flatMap((p, i) =>
      toolFor(p.tool, voter) ? [] : [`pairs.${i}.tool "${p.tool}"${didYouMean(p.tool, visibleNames(voter))}`],
    );
    if (unknown.length > 0) throw new AppError("not_found", `unknown tool(s): ${unknown.join(", ")}`);
    try {
      const { learn, outcome } = await feedbackGate.vote(pairs, voter, (name) => registry.get(name));
      // One locked write and one embedding batch for the whole request.
      if (learn.length > 0) await (await index()).router.recordFeedbackMany(learn);
      return outcome;
    } catch (error) {
      throw storeProblem(error);
    }
  }

  /** Straight to the router, so an evaluation's queries stay out of the service's route metrics. */
  async function evaluate(request: RouteEvaluationRequest): Promise<RouteEvaluation> {
    let queries = request.queries;
    if (request.set === "catalog") {
      const labelled = await readCatalogLabelledSet(config.catalog);
      if (!labelled)
        throw new AppError(
          "not_found",
          "this catalog has no labelled queries (eval/queries.jsonl in its folder)",
        );
      queries = labelled.slice(0, MAX_EVAL_QUERIES).map((q) => ({ query: q.query, tools: q.tools ?? [] }));
    }
    const { router } = await index();
    const report = await evaluateRouting(queries ?? [], request.topK, (query, topK) =>
      router.route(query, { topK }),
    );
    return { set: request.set, ...report };
  }

  async function ready(): Promise<ReadyReport> {
    const { router, seeded, embedder } = await index();
    return {
      tools: registry.list().length,
      embedder: embedderHealth(embedder),
      index: { ...router.report, seeded, dense: router.dense.state },
    };
  }

  return {
    ready,
    route,
    execute,
    // Both may register a tool: a database that is away is a 503 store_unavailable, not a failure here.
    routeAndExecute: (request, options) =>
      routeAndExecute(request, options).catch((error) => Promise.reject(storeProblem(error))),
    synthesize: (request, viewer) =>
      synthesize(request, viewer).catch((error) => Promise.reject(storeProblem(error))),
    listTools: (viewer) =>
      registry
        .entries()
        .filter((entry) => canUse(entry, viewer))
        .map((entry) => entry.tool),
    getTool: toolFor,
    toolListing: (viewer) =>
      registry
        .entries()
        .filter((entry) => canUse(entry, viewer))
        .map((entry) => listing(entry, viewer)),
    async promoteTool(name, by) {
      const promoted = await registry.promote(name).catch((error) => Promise.reject(storeProblem(error)));
      if (promoted === "unknown") throw new AppError("not_found", `unknown tool "${name}"`);
      if (promoted === "published")
        throw new AppError(
          "conflict",
          `tool "${name}" is already published: only a pending tool is promoted`,
        );
      logger.info(
        { tool: name, owner: promoted.synthesis?.owner, by: by?.id ?? "local" },
        "pending synthesized tool promoted: routed for every key from now on",
      );
      return listing(promoted, by);
    },
    putTool: (tool) => register(tool, "api"),
    async deleteTool(name, by) {
      const entry = registry.entry(name);
      if (!(await registry.delete(name).catch((error) => Promise.reject(storeProblem(error)))))
        throw new AppError("not_found", unknownToolMessage(name, visibleNames(by)));
      logger.info(
        { tool: name, origin: entry?.origin, status: entry?.synthesis?.status, by: by?.id ?? "local" },
        "tool deleted",
      );
      await indexing;
    },
    feedback,
    feedbackVotes: () => feedbackGate.pending().catch((error) => Promise.reject(storeProblem(error))),
    evaluateRouting: evaluate,
    inspect,
    executions: (filter) => history.list(dispatcher.executions(), filter),
    breakers: () => dispatcher.breakers(),
    stores: () => scaleOut.health(),
    embedder: () => (openedIndex ? embedderHealth(openedIndex.embedder) : undefined),
    denseIndex: () => openedIndex?.router.dense,
    metrics,
    async close() {
      await indexing;
      await dispatcher.close();
      // An index that failed to open has nothing to persist; its error was already reported to its caller.
      const opened = await opening?.catch(() => undefined);
      await opened?.close();
      await closeProviders();
      sandbox.close();
      await browser.close();
      await scaleOut.close();
    },
  };
}

function embedderHealth(embedder: Embedder): EmbedderHealth {
  const { id, runtime, fallback } = embedder;
  return { id, runtime, ...(fallback ? { fallback } : {}) };
}
