// Prometheus metrics in a registry of their own (not prom-client's global one), so that two Switchboards
// in one process, as in tests, do not collide. Labels carry tool names, never a provider's command line or
// URL template: whoever may scrape the metrics may not read the bindings (see SECURITY.md).
import { createHash } from "node:crypto";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface BreakerReading {
  tool: string;
  provider: string;
  state: "closed" | "half_open" | "open" | "isolated";
}

const BREAKER_STATE_VALUE = { closed: 0, half_open: 1, open: 2, isolated: 3 } as const;

/**
 * A provider's label: its binding type and a short hash of its id (which holds the command line or the URL
 * template), stable across restarts, so two providers of one tool stay apart without showing either.
 */
export function providerLabel(providerId: string): string {
  const type = /^(\w+):/.exec(providerId)?.[1] ?? "provider";
  return `${type}:${createHash("sha256").update(providerId).digest("hex").slice(0, 12)}`;
}

export class Metrics {
  readonly registry = new Registry();
  readonly routeDuration = new Histogram({
    name: "switchboard_route_duration_seconds",
    help: "Time to route one query",
    labelNames: ["matched"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });
  readonly toolDuration = new Histogram({
    name: "switchboard_tool_duration_seconds",
    help: "Time of one tool call through the dispatcher, retries and fallbacks included",
    labelNames: ["tool", "status"] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly retries = new Counter({
    name: "switchboard_tool_retries_total",
    help: "Retried tool call attempts",
    labelNames: ["tool"] as const,
    registers: [this.registry],
  });
  readonly fallbacks = new Counter({
    name: "switchboard_tool_fallbacks_total",
    help: "Calls answered by a fallback provider",
    labelNames: ["tool"] as const,
    registers: [this.registry],
  });
  readonly rejections = new Counter({
    name: "switchboard_tool_rejections_total",
    help: "Calls rejected before running (open breaker, concurrency limit, invalid arguments)",
    labelNames: ["tool", "reason"] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: "switchboard_http_request_duration_seconds",
    help: "HTTP request duration by route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  /** The breaker gauge reads the dispatcher at scrape time, so it is never stale. */
  constructor(readBreakers: () => BreakerReading[]) {
    collectDefaultMetrics({ register: this.registry, prefix: "switchboard_" });
    new Gauge({
      name: "switchboard_breaker_state",
      help: "Circuit breaker state per tool provider: 0 closed, 1 half-open, 2 open, 3 isolated by hand",
      labelNames: ["tool", "provider"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const b of readBreakers())
          this.set({ tool: b.tool, provider: providerLabel(b.provider) }, BREAKER_STATE_VALUE[b.state]);
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
