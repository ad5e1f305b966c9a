// route-and-execute as the service offers it: the request's length checked, then answered
// (route-and-execute/request.ts) with this caller's view of routing and tools, its calls run in its session
// under its key, and synthesis as the last resort. A database that is away is a 503 store_unavailable.
import type { SwitchboardConfig } from "./config.ts";
import type { Execution } from "./execution.ts";
import type { RouteAndExecuteRequest } from "./requests.ts";
import { answerRequest } from "./route-and-execute/request.ts";
import type { Routing } from "./routing.ts";
import { storeProblem } from "./scale-out.ts";
import type { SynthesisService } from "./synthesis.ts";
import type { ToolDirectory } from "./tool-directory.ts";
import { AppError, type RouteAndExecuteOptions, type RouteAndExecuteResponse } from "./types.ts";

export interface RouteAndExecuteDeps {
  config: Pick<SwitchboardConfig, "llm" | "maxRequestChars">;
  routing: Pick<Routing, "route">;
  directory: Pick<ToolDirectory, "get">;
  execution: Pick<Execution, "runValidated">;
  synthesis: Pick<SynthesisService, "synthesizeAndRun">;
}

/** Every call the request runs (one per intent) runs in `session`, in turn, so each sees the last's changes. */
export function routeAndExecuteWith(deps: RouteAndExecuteDeps) {
  const { config, routing, directory, execution, synthesis } = deps;
  return async (
    request: RouteAndExecuteRequest,
    { session, ask, owner, viewer }: RouteAndExecuteOptions = {},
  ): Promise<RouteAndExecuteResponse> => {
    const length = request.query.trim().length;
    if (length > config.maxRequestChars)
      throw new AppError(
        "invalid",
        `query: is ${length} characters long, more than the ${config.maxRequestChars} this service takes (SWITCHBOARD_MAX_REQUEST_CHARS)`,
      );
    const runFor = { session, owner, viewer };
    return answerRequest(request, {
      route: (routed) => routing.route(routed, viewer),
      getTool: (name) => directory.get(name, viewer),
      run: (tool, args, steps) => execution.runValidated(tool, args, steps, runFor),
      noMatch: (unmatched, steps) => synthesis.synthesizeAndRun(unmatched, steps, runFor),
      ...(config.llm ? { llm: config.llm } : {}),
      ...(ask ? { ask } : {}),
    }).catch((error) => Promise.reject(storeProblem(error)));
  };
}
