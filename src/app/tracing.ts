// OpenTelemetry spans named per the GenAI semantic conventions. @opentelemetry/api is a no-op until an
// SDK registers a tracer provider, so this costs nothing in a plain deployment.
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { VERSION } from "../config/index.ts";
import type { CallResult } from "./types.ts";

const tracer = trace.getTracer("switchboard", VERSION);

/**
 * One `execute_tool {name}` span per call. The dispatcher reports a call when it ends, so the span is
 * written then, with its start taken back by the call's measured total time.
 */
export function recordToolSpan(result: CallResult, endTime = Date.now()): void {
  const span = tracer.startSpan(`execute_tool ${result.name}`, {
    kind: SpanKind.INTERNAL,
    startTime: endTime - result.timing.totalMs,
    attributes: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": result.name,
      "gen_ai.tool.call.id": result.id,
    },
  });
  if (result.status !== "completed") {
    span.setAttribute("error.type", result.error?.class ?? result.status);
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.error?.message ?? result.status });
  }
  span.end(endTime);
}
