// One log line and one latency sample per request, and the request id in every answer. Logged here rather
// than by Fastify's two lines per request: logging is a measurable share of a small request's cost.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { AppGate } from "../app-gate.ts";

export interface RequestLogOptions {
  app: AppGate;
}

async function requestLog(server: FastifyInstance, { app }: RequestLogOptions): Promise<void> {
  server.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  server.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      "request",
    );
    app.current?.metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unknown",
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

// fastify-plugin: every answer carries its id and is logged, the not-found answer and every scope's included.
export const requestLogPlugin = fp(requestLog, { name: "switchboard-request-log", fastify: "5.x" });
