// Writing new tools: from code a maintainer sends, or by the configured LLM from an intent (the pages it
// names inspected first), registered through the catalog writes. route-and-execute's last resort
// (`synthesizeAndRun`) writes a tool for a request nothing fits and runs it; for an agent key the tool is
// private and pending (tool-access.ts), within the key's synthesis budget (agent-synthesis.ts).
import type { Capabilities, SynthesisProvenance, ToolRegistry } from "../catalog/index.ts";
import type { Logger } from "../config/index.ts";
import { type LlmConfig, LlmError } from "../llm/index.ts";
import {
  type IntentOutcome,
  type IntentRequest,
  type SynthesisOutcome,
  synthesizeFromIntent,
  synthesize as synthesizeTool,
} from "../synth/index.ts";
import { AgentSynthesisGate } from "./agent-synthesis.ts";
import type { CatalogWrites } from "./catalog-writes.ts";
import type { SwitchboardConfig } from "./config.ts";
import type { Execution, RunFor } from "./execution.ts";
import type { LiveIndex } from "./live-index.ts";
import { pagesNamedIn } from "./page-inspection.ts";
import type { RouteAndExecuteRequest, SynthesizeRequest } from "./requests.ts";
import type { Viewer } from "./tool-access.ts";
import type { ToolRuntime } from "./tool-runtime.ts";
import { AppError, type RouteAndExecuteResponse, type Step, type SynthesisResponse } from "./types.ts";

export interface SynthesisServiceDeps {
  config: Pick<SwitchboardConfig, "llm" | "agentSynthesis">;
  registry: ToolRegistry;
  writes: CatalogWrites;
  index: LiveIndex;
  runtime: Pick<ToolRuntime, "sandbox" | "browser" | "requireBrowser">;
  execution: Execution;
  logger: Logger;
}

/** The provenance of a tool synthesized now for `viewer`: an agent key's stays its own until promoted. */
const provenanceFor = (viewer: Viewer | undefined, request: string): SynthesisProvenance => ({
  status: viewer?.role === "agent" ? "pending" : "published",
  ...(viewer ? { owner: viewer.id } : {}),
  at: new Date().toISOString(),
  request: request.slice(0, 4000),
});

export class SynthesisService {
  readonly #deps: SynthesisServiceDeps;
  readonly #agents: AgentSynthesisGate;

  constructor(deps: SynthesisServiceDeps) {
    this.#deps = deps;
    this.#agents = new AgentSynthesisGate(deps.config.agentSynthesis);
  }

  /** A maintainer's (or the operator's) synthesis: what it writes is published at once. */
  async synthesize(request: SynthesizeRequest, viewer?: Viewer): Promise<SynthesisResponse> {
    const { config, runtime, writes, index } = this.#deps;
    await runtime.requireBrowser(request.capabilities as Capabilities | undefined);
    const { code } = request;
    // Only maintainer keys reach this (the API refuses agent keys): what it writes is published at once.
    const provenance = provenanceFor(viewer?.role === "agent" ? undefined : viewer, request.description);
    let outcome: SynthesisOutcome;
    if (code !== undefined)
      outcome = await synthesizeTool(
        { ...request, code },
        { sandbox: runtime.sandbox, registry: writes.forSynthesis(provenance) },
      );
    else if (config.llm)
      outcome = await this.#fromIntent(
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
    await index.settled();
    return outcome.ok
      ? { ok: true, tool: outcome.tool, tests: outcome.tests }
      : { ok: false, stage: outcome.stage, kind: outcome.kind, errors: outcome.errors };
  }

  /** Nothing fits: with an LLM configured, write the tool, register it, then run it like any other. */
  async synthesizeAndRun(
    request: RouteAndExecuteRequest,
    steps: Step[],
    runFor: RunFor,
  ): Promise<RouteAndExecuteResponse> {
    const { config, registry, index, execution, logger } = this.#deps;
    const { viewer } = runFor;
    if (!config.llm) return { status: "no_match", steps };
    // A match the dense half would find must not be written again as a new tool.
    const dense = index.dense();
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
      const taken = this.#agents.take(viewer.id, pending);
      if (typeof taken !== "function") {
        steps.push({ step: "synthesize", ok: false, skipped: taken.reason, detail: taken.detail });
        return { status: "no_match", steps };
      }
      release = taken;
    }
    let outcome: IntentOutcome;
    try {
      outcome = await this.#fromIntent(
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
    await index.settled();
    const status = viewer?.role === "agent" ? "pending" : "published";
    logger.info(
      { tool: outcome.tool.name, status, owner: viewer?.id ?? "local" },
      "tool synthesized for a route-and-execute request",
    );
    steps.push({ step: "synthesize", ok: true, tool: outcome.tool.name, rounds: outcome.rounds });
    steps.push({ step: "register", tool: outcome.tool.name, version: outcome.tool.version ?? 1, status });
    return execution.runValidated(outcome.tool, request.arguments ?? {}, steps, runFor);
  }

  /** The configured LLM writes the tool; an unreachable endpoint is the service's problem (503), not the caller's. */
  async #fromIntent(
    request: IntentRequest,
    llm: LlmConfig,
    provenance: SynthesisProvenance,
  ): Promise<IntentOutcome> {
    const { runtime, writes, registry } = this.#deps;
    try {
      const pages = await pagesNamedIn(runtime.browser, request);
      return await synthesizeFromIntent(pages.length > 0 ? { ...request, pages } : request, {
        sandbox: runtime.sandbox,
        registry: writes.forSynthesis(provenance),
        llm,
        isTaken: (name) => registry.get(name) !== undefined,
      });
    } catch (error) {
      if (error instanceof LlmError) throw new AppError("unavailable", error.message);
      throw error;
    }
  }
}
