// Stage: the tool's `policy.degraded` output, served (as completed, with a warning) when everything after
// this stage failed, the stale cache included.
import type { Tool } from "../../catalog/index.ts";
import type { Call } from "../call.ts";
import type { FallbackNotice } from "../events.ts";
import type { Pending } from "../pending.ts";
import type { Next, Stage } from "../pipeline.ts";
import { lastResortFor, messageOf } from "./last-resort.ts";

export class DegradedOutput implements Stage {
  readonly #tool: Tool;
  readonly #output: unknown;
  readonly #lastProvider: string;
  readonly #fallback: (notice: FallbackNotice) => void;

  constructor(tool: Tool, output: unknown, lastProvider: string, fallback: (notice: FallbackNotice) => void) {
    this.#tool = tool;
    this.#output = output;
    this.#lastProvider = lastProvider;
    this.#fallback = fallback;
  }

  execute(call: Call, next: Next): Pending {
    return next(call).after(this.#degradeIfFailed);
  }

  readonly #degradeIfFailed = (call: Call): Call => {
    if (call.outcome !== "failed") return call;
    const error = call.failure;
    const reason = lastResortFor(call, error, this.#tool.policy?.errors);
    if (reason === undefined) return call;
    this.#fallback({
      callId: call.id,
      tool: this.#tool.name,
      from: this.#lastProvider,
      to: "degraded",
      reason,
    });
    call.provider = "degraded";
    call.warn(`every provider failed (${messageOf(error)}); degraded output served`);
    return call.answer(this.#output);
  };
}
