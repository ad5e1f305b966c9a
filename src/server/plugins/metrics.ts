// Prometheus metrics (src/app's Metrics) at /metrics, for agent keys and up.
import type { FastifyInstance } from "fastify";
import type { AppGate } from "../app-gate.ts";

export interface MetricsOptions {
  app: AppGate;
}

export async function metricsPlugin(server: FastifyInstance, { app }: MetricsOptions): Promise<void> {
  server.get("/metrics", { config: { access: "agent" } }, async (_request, reply) => {
    const ready = app.ready();
    return reply.type(ready.metrics.contentType).send(await ready.metrics.text());
  });
}
