// Routing for a caller: the request checked, the index asked with the caller's hidden tools left out, and
// each hit's definition in the requested format with how many prompt tokens it saves. Also the routing
// evaluation, straight to the router so its queries stay out of the service's route metrics.
import type { ToolRegistry } from "../catalog/index.ts";
import { estimateTokens } from "../dispatch/index.ts";
import { CatalogTokens } from "./catalog-tokens.ts";
import type { SwitchboardConfig } from "./config.ts";
import type { LiveIndex } from "./live-index.ts";
import type { Metrics } from "./metrics.ts";
import { type RouteRequest, routeRequestSchema } from "./requests.ts";
import {
  evaluateRouting,
  MAX_EVAL_QUERIES,
  type RouteEvaluation,
  type RouteEvaluationRequest,
  readCatalogLabelledSet,
} from "./route-evaluation.ts";
import type { Viewer } from "./tool-access.ts";
import type { ToolDirectory } from "./tool-directory.ts";
import { AppError, type RouteResponse } from "./types.ts";

export interface RoutingDeps {
  registry: ToolRegistry;
  directory: ToolDirectory;
  index: LiveIndex;
  metrics: Metrics;
  config: Pick<SwitchboardConfig, "catalog">;
}

export class Routing {
  readonly #deps: RoutingDeps;
  readonly #tokens: CatalogTokens;

  constructor(deps: RoutingDeps) {
    this.#deps = deps;
    this.#tokens = new CatalogTokens(() => deps.registry.list(), estimateTokens);
    deps.registry.on("change", () => this.#tokens.invalidate());
  }

  async route(request: RouteRequest, viewer?: Viewer): Promise<RouteResponse> {
    const { registry, directory, index, metrics } = this.#deps;
    const parsed = routeRequestSchema.safeParse(request);
    if (!parsed.success)
      throw new AppError(
        "invalid",
        `invalid route request: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const { query, topK, threshold, categories, format } = parsed.data;
    const end = metrics.routeDuration.startTimer();
    const router = await index.router();
    const hide = directory.hiddenFrom(viewer);
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
      const { definition, tokens } = this.#tokens.formatted(tool, format);
      returnedTokens += tokens;
      return [{ name: hit.name, score: hit.score, why: hit.why, definition }];
    });
    return {
      query,
      matched: result.matched,
      threshold: result.threshold,
      notices: result.notices,
      format,
      tools,
      context: this.#tokens.saved(returnedTokens, format),
    };
  }

  async evaluate(request: RouteEvaluationRequest): Promise<RouteEvaluation> {
    let queries = request.queries;
    if (request.set === "catalog") {
      const labelled = await readCatalogLabelledSet(this.#deps.config.catalog);
      if (!labelled)
        throw new AppError(
          "not_found",
          "this catalog has no labelled queries (eval/queries.jsonl in its folder)",
        );
      queries = labelled.slice(0, MAX_EVAL_QUERIES).map((q) => ({ query: q.query, tools: q.tools ?? [] }));
    }
    const router = await this.#deps.index.router();
    const report = await evaluateRouting(queries ?? [], request.topK, (query, topK) =>
      router.route(query, { topK }),
    );
    return { set: request.set, ...report };
  }
}
