// Liveness and readiness, public: a load balancer asks them without a key.
import type { FastifyInstance } from "fastify";
import type { AppGate } from "../app-gate.ts";

export interface HealthOptions {
  app: AppGate;
}

export async function healthPlugin(server: FastifyInstance, { app }: HealthOptions): Promise<void> {
  server.get("/healthz", async () => ({ status: "ok" }));
  server.get("/readyz", async () => {
    // Ready even on a local fallback (the replica routes and runs calls); `stores` says what is degraded.
    const stores = app.ready().stores();
    // The embedder is named only when degraded: on tfjs because the native runtime did not load.
    const embedder = app.ready().embedder();
    // Named only until complete: routes use BM25 and trigrams while a large catalog's dense index fills.
    const dense = app.ready().denseIndex();
    return {
      status: "ready",
      ...(stores.postgres === "off" && stores.redis === "off" ? {} : { stores }),
      ...(embedder?.fallback ? { embedder } : {}),
      ...(dense && dense.state !== "complete" ? { index: { dense } } : {}),
    };
  });
}
