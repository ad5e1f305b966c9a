// The HTTP service: a root Fastify instance that only registers plugins (plugins/), each with its own scope
// and options. Hooks that must hold for every request (request ids and logging, one error shape, JSON
// bodies, the drain, the Host/Origin checks) are on the root; authentication and the rate limit reach only
// the keyed scope, which holds /metrics, the /v1 API and /mcp. The threat model behind these rules is
// SECURITY.md; a request's path through them is docs/architecture.md, "Following one request".
import Fastify from "fastify";
import type { Switchboard } from "../app/index.ts";
import type { Logger } from "../config/index.ts";
import { AppGate } from "./app-gate.ts";
import type { Keys } from "./auth.ts";
import { consolePlugin } from "./console/index.ts";
import { BODY_LIMIT_BYTES, fastifyOptions } from "./fastify-options.ts";
import { authenticationPlugin } from "./plugins/authentication.ts";
import { drainPlugin } from "./plugins/drain.ts";
import { errorShapePlugin } from "./plugins/error-shape.ts";
import { healthPlugin } from "./plugins/health.ts";
import { jsonBodyPlugin } from "./plugins/json-body.ts";
import { mcpPlugin } from "./plugins/mcp.ts";
import { metricsPlugin } from "./plugins/metrics.ts";
import { openApiPlugin } from "./plugins/openapi.ts";
import { originPlugin } from "./plugins/origin.ts";
import { rateLimitPlugin } from "./plugins/rate-limit.ts";
import { requestLogPlugin } from "./plugins/request-log.ts";
import { v1RoutesPlugin } from "./plugins/v1-routes.ts";
import { apiRoutes } from "./routes.ts";

export { BODY_LIMIT_BYTES } from "./fastify-options.ts";
export { DRAIN_DEADLINE_MS } from "./plugins/drain.ts";

export interface HttpServerOptions {
  /** Resolves once the index is loaded; until then /readyz and the API answer 503. */
  app: Promise<Switchboard>;
  keys: Keys;
  /** Requests per minute per API key. */
  rateLimit: number;
  /** Counts requests in this Redis so the limit holds across replicas (SWITCHBOARD_REDIS_URL). */
  redisUrl?: string;
  logger: Logger;
  /** Default DRAIN_DEADLINE_MS. */
  drainDeadlineMs?: number;
}

export async function createHttpServer(options: HttpServerOptions) {
  const app = new AppGate(options.app);
  const keyless = options.keys.agent.length + options.keys.maintainer.length === 0;
  const server = Fastify(fastifyOptions(options.logger));
  // Every request, in this order: its id and log line, the error shape, JSON bodies, the drain, Host/Origin.
  await server.register(requestLogPlugin, { app });
  await server.register(errorShapePlugin, { bodyLimit: BODY_LIMIT_BYTES });
  await server.register(jsonBodyPlugin);
  await server.register(
    drainPlugin,
    options.drainDeadlineMs === undefined ? {} : { deadlineMs: options.drainDeadlineMs },
  );
  await server.register(originPlugin, { keyless });
  // Public: health, the OpenAPI document, and the maintainer console (static files that act through the API).
  await server.register(healthPlugin, { app });
  await server.register(openApiPlugin, { routes: apiRoutes });
  await server.register(consolePlugin);
  // Keyed: a key identifies the caller, then its requests are counted, before any body is read.
  await server.register(async function keyedScope(keyed) {
    await keyed.register(authenticationPlugin, { keys: options.keys });
    await keyed.register(rateLimitPlugin, { max: options.rateLimit, redisUrl: options.redisUrl });
    await keyed.register(metricsPlugin, { app });
    await keyed.register(v1RoutesPlugin, { app, routes: apiRoutes });
    await keyed.register(mcpPlugin, { app });
  });
  return server;
}

export type HttpServer = Awaited<ReturnType<typeof createHttpServer>>;
