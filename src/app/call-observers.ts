// What the service watches of the dispatcher's calls: the execution history, the Prometheus metrics and a
// trace span per finished call.
import type { Dispatcher } from "../dispatch/index.ts";
import type { ExecutionHistory } from "./execution-history.ts";
import type { Metrics } from "./metrics.ts";
import { recordToolSpan } from "./tracing.ts";

export function observeCalls(dispatcher: Dispatcher, metrics: Metrics, history: ExecutionHistory): void {
  dispatcher.on("call", (result) => {
    history.record(result);
    metrics.toolDuration.observe({ tool: result.name, status: result.status }, result.timing.totalMs / 1000);
    recordToolSpan(result);
  });
  dispatcher.on("retry", (notice) => metrics.retries.inc({ tool: notice.tool }));
  dispatcher.on("fallback", (notice) => metrics.fallbacks.inc({ tool: notice.tool }));
  dispatcher.on("rejected", (notice) => metrics.rejections.inc({ tool: notice.tool, reason: notice.class }));
}
