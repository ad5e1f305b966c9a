// The HTTP service: Fastify with zod-validated bodies, bearer keys with two roles, per-key rate limits,
// a failed-key throttle per address, loopback Host/Origin checks without keys, body limits, request ids in
// every log line and response, one error shape for every failure (Fastify's own included), a drain with a
// deadline on shutdown, health/readiness/metrics, the OpenAPI document, and MCP over Streamable HTTP at /mcp.
// The threat model behind these rules is SECURITY.md.
import { randomUUID } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { LRUCache } from "lru-cache";
import { connectRedis, type Switchboard, startRedis } from "../app/index.ts";
import { type Logger, VERSION } from "../config/index.ts";
import { type Access, AuthError, Authenticator, type Caller, type Keys } from "./auth.ts";
import { consolePlugin } from "./console/index.ts";
import { Drain } from "./drain.ts";
import { parseJsonBody } from "./json-body.ts";
import { createMcpServer } from "./mcp.ts";
import { McpSessions } from "./mcp-sessions.ts";
import { openApiDocument } from "./openapi.ts";
import { checkOrigin } from "./origin.ts";
import {
  clientErrorAnswer,
  HttpError,
  MAX_PARAM_LENGTH,
  parseOr400,
  problem,
  toProblem,
} from "./problems.ts";
import { apiRoutes } from "./routes.ts";
import { FailedKeyThrottle } from "./throttle.ts";

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** How long a shutdown waits for running requests before answering them 503 shutting_down. */
export const DRAIN_DEADLINE_MS = 10_000;

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

declare module "fastify" {
  interface FastifyRequest {
    caller?: Caller;
    /** A read-only route's rate-limit verdict, checked alongside its work (see limitAlongside). */
    limitVerdict?: Promise<unknown>;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** Open MCP sessions at most, and how long a quiet one stays open. */
// Per key (mcp-sessions.ts).
const MCP_SESSIONS = { maxSessions: 1000, idleMs: 30 * 60_000 };
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
/** The methods a 405's Allow header may name (HEAD comes with every GET route). */
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export async function createHttpServer(options: HttpServerOptions) {
  let app: Switchboard | undefined;
  let failed: Error | undefined;
  options.app.then(
    (ready) => {
      app = ready;
    },
    (error: Error) => {
      failed = error;
    },
  );
  const readyApp = (): Switchboard => {
    if (app) return app;
    throw new HttpError(
      503,
      "not_ready",
      failed ? `the service failed to start: ${failed.message}` : "the service is still loading its index",
    );
  };

  const auth = new Authenticator(options.keys);
  const throttle = new FailedKeyThrottle();
  const drain = new Drain();
  const server = Fastify({
    loggerInstance: options.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // A caller's x-request-id is kept only when it looks like an id: it goes into every log line and back
    // in the answer, so 16 KB of text or another request's id must not.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests arriving while draining are refused by the onRequest hook, in the documented error shape.
    return503OnClosing: false,
    forceCloseConnections: "idle",
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // What fails before routing (bad percent-encoding, an over-long parameter) gets the error shape too.
    frameworkErrors: (error, request, reply) => {
      const { status, body } = toProblem(error, BODY_LIMIT_BYTES);
      request.log.info({ code: body.error.code, status }, body.error.message);
      void (reply as unknown as FastifyReply).status(status).send(body);
    },
    // What Node's HTTP parser refuses (oversized headers or URL, garbage) never reaches Fastify's router.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      // end, not destroy: the answer is flushed before the FIN, where a destroy could reset it away. A client
      // that never closes its side is cut a moment later.
      if (!socket.writable) return socket.destroy(error);
      socket.end(clientErrorAnswer(error.code));
      setTimeout(() => socket.destroy(), 5_000).unref();
    },
    // One log line per request (in onResponse below) instead of Fastify's two: logging is a measurable
    // share of a small request's cost.
    logController: new LogController({ disableRequestLogging: true }),
  });

  // Bodies are JSON only: a text/plain body gets 415 rather than a confusing type error.
  server.removeContentTypeParser("text/plain");
  // Fastify's own JSON parser refuses an empty body even where the endpoint takes none (clients send the
  // header on a bodiless DELETE) and drops the parser's position; routes that need a body say so instead.
  server.removeContentTypeParser("application/json");
  server.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    try {
      done(null, parseJsonBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  server.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (drain.draining)
      throw new HttpError(503, "shutting_down", "the service is shutting down; send the request again later");
    checkOrigin({
      keyless: !auth.enabled,
      mcp: request.routeOptions.url === "/mcp",
      host: request.headers.host,
      origin: request.headers.origin,
    });
    const access = request.routeOptions.config.access ?? "public";
    if (access === "public") return;
    if (auth.enabled) {
      const wait = throttle.blockedFor(request.ip);
      if (wait > 0)
        throw new HttpError(
          429,
          "too_many_failed_keys",
          `${throttle.limit} wrong keys from this address within a minute; every key from it is refused for ${Math.ceil(wait / 1000)} s`,
          undefined,
          { "retry-after": String(Math.ceil(wait / 1000)) },
        );
    }
    try {
      request.caller = auth.identify(request.headers.authorization);
    } catch (error) {
      if (error instanceof AuthError && error.failedKey) throttle.fail(request.ip);
      throw error;
    }
    auth.authorize(request.caller, access, `${request.method} ${request.routeOptions.url}`);
  });

  const redis = options.redisUrl ? connectRedis(options.redisUrl) : undefined;
  if (redis) {
    await startRedis(redis);
    server.addHook("onClose", async () => redis.disconnect());
  }
  const limitKey = (request: FastifyRequest) => request.caller?.id ?? request.ip;
  // Keys refused until their window ends (Redis's TTL); their read-only requests wait for the verdict.
  const refusedKeys = new LRUCache<string, true>({ max: 10_000 });
  await server.register(rateLimit, {
    max: options.rateLimit,
    // While Redis is away requests pass unlimited rather than fail: availability over the limit.
    ...(redis ? { redis, skipOnError: true, nameSpace: "switchboard:rate:" } : {}),
    timeWindow: 60_000,
    // After authentication (onRequest) and before the body is read, so a limited key costs no parsing.
    hook: "preParsing",
    keyGenerator: limitKey,
    allowList: (request) => (request.routeOptions.config.access ?? "public") === "public",
    errorResponseBuilder: (request, context) => {
      refusedKeys.set(limitKey(request), true, { ttl: Math.max(1, context.ttl) });
      return new HttpError(
        429,
        "rate_limited",
        `rate limit of ${context.max} requests per minute exceeded for this key; retry in ${context.after}`,
      );
    },
  });
  /**
   * The same limit, counters and answers as every other route's, for read-only routes, whose work runs
   * while their key is counted: with Redis the count is a round trip to another process, which on a busy
   * machine waits for a CPU as long as a route takes (docs/performance.md). A request refused at the end
   * has changed nothing; a key already refused waits for the verdict first, so a flood costs no work.
   */
  const countRequest = server.rateLimit();
  const limitAlongside = async (...[request, reply]: Parameters<typeof countRequest>) => {
    const verdict = countRequest.call(server, request, reply);
    if (refusedKeys.has(limitKey(request))) return verdict;
    // Awaited by the handler; a request that fails before it (a bad body) is answered as it was.
    verdict.catch(() => undefined);
    request.limitVerdict = verdict;
  };

  server.setErrorHandler((error, request, reply) => {
    const { status, body, headers } = toProblem(error, BODY_LIMIT_BYTES);
    // Only unexpected failures carry a stack; refusals are the caller's business, logged in one line.
    if (status === 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: body.error.code, status }, body.error.message);
    if (headers) void reply.headers(headers);
    return reply.status(status).send(body);
  });
  server.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = HTTP_METHODS.filter((method) => server.findRoute({ url: path, method }) !== null);
    if (allowed.length > 0)
      return reply
        .status(405)
        .header("allow", allowed.join(", "))
        .send(
          problem(
            "method_not_allowed",
            `${request.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
          ),
        );
    return reply.status(404).send(problem("not_found", `no endpoint ${request.method} ${path}`));
  });

  // While draining, answers close their connection, so close() does not wait out keep-alive timeouts.
  server.addHook("preClose", async () => {
    drain.start(options.drainDeadlineMs ?? DRAIN_DEADLINE_MS);
  });
  server.addHook("onSend", async (_request, reply) => {
    if (drain.draining) reply.header("connection", "close");
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
    app?.metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unknown",
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  server.get("/healthz", async () => ({ status: "ok" }));
  server.get("/readyz", async () => {
    // Ready even on a local fallback (the replica routes and runs calls); `stores` says what is degraded.
    const stores = readyApp().stores();
    // The embedder is named only when degraded: on tfjs because the native runtime did not load.
    const embedder = readyApp().embedder();
    return {
      status: "ready",
      ...(stores.postgres === "off" && stores.redis === "off" ? {} : { stores }),
      ...(embedder?.fallback ? { embedder } : {}),
    };
  });
  server.get("/metrics", { config: { access: "agent" } }, async (_request, reply) => {
    const ready = readyApp();
    return reply.type(ready.metrics.contentType).send(await ready.metrics.text());
  });
  // The maintainer console: static files only; it acts through the API below like any client.
  await server.register(consolePlugin);
  const document = openApiDocument(apiRoutes, VERSION);
  server.get("/openapi.json", async () => document);

  for (const route of apiRoutes) {
    server.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ":$1"),
      config: { access: route.access, ...(route.readOnly ? { rateLimit: false as const } : {}) },
      ...(route.readOnly ? { onRequest: limitAlongside } : {}),
      handler: async (request, reply) => {
        const work = (async () => {
          if (route.body && request.body === undefined)
            throw new HttpError(400, "empty_body", "the request has no JSON body; this endpoint needs one");
          const body = route.body ? parseOr400(route.body, request.body, "body") : undefined;
          const query = route.query ? parseOr400(route.query, request.query, "query") : undefined;
          return drain.race(
            route.handle({
              app: readyApp(),
              body,
              query,
              params: request.params as Record<string, string>,
              signal: AbortSignal.any([abortedWithClient(reply), drain.signal]),
              caller: request.caller ?? LOCAL_OPERATOR,
            }),
          );
        })();
        // A refusal wins over the work's answer or error, as when the limit is checked first.
        const [verdict, outcome] = await Promise.allSettled([request.limitVerdict, work]);
        if (verdict.status === "rejected") throw verdict.reason;
        if (outcome.status === "rejected") throw outcome.reason;
        return reply.status(route.statusOf?.(outcome.value) ?? 200).send(outcome.value);
      },
    });
  }

  // Streamable HTTP with sessions (mcp-sessions.ts); the caller's role decides, when the session starts,
  // whether synthesize_tool is offered.
  // Draining ends the sessions' notification streams (GET), which would otherwise hold the server open
  // until the drain deadline; calls in flight finish. Closing ends the sessions.
  const mcpSessions = new McpSessions(MCP_SESSIONS);
  server.addHook("preClose", async () => mcpSessions.endStreams());
  server.addHook("onClose", async () => mcpSessions.closeAll());
  server.route({
    method: ["GET", "POST", "DELETE"],
    url: "/mcp",
    config: { access: "agent" },
    handler: async (request, reply) => {
      // A JSON-RPC message is the body of every POST; GET and DELETE take none.
      if (request.method === "POST" && request.body === undefined)
        throw new HttpError(
          400,
          "empty_body",
          "the request has no JSON body; an MCP POST carries a JSON-RPC message",
        );
      const callerId = (request.caller ?? LOCAL_OPERATOR).id;
      const sessionId = request.headers["mcp-session-id"];
      let transport: StreamableHTTPServerTransport;
      let started: McpServer | undefined;
      if (typeof sessionId === "string") {
        const open = mcpSessions.get(sessionId, callerId);
        if (!open)
          return reply.status(404).send({
            jsonrpc: "2.0",
            error: { code: -32001, message: "unknown or expired MCP session; initialize a new one" },
            id: null,
          });
        transport = open.transport;
      } else {
        const role = (request.caller ?? LOCAL_OPERATOR).role;
        started = createMcpServer(readyApp(), {
          allowSynthesis: role === "maintainer",
          role,
          callerId,
        });
        transport = mcpSessions.start(callerId, started);
        await started.connect(transport);
      }
      reply.hijack();
      drain.hijacked(reply.raw);
      try {
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        // The reply is hijacked, so Fastify's error handler cannot answer for the transport.
        request.log.error({ err: error }, "MCP request failed");
        if (!reply.raw.headersSent)
          reply.raw
            .writeHead(500, { "content-type": "application/json" })
            .end(JSON.stringify({ error: { code: "internal", message: "the MCP request failed" } }));
      } finally {
        if (started) mcpSessions.discardUnstarted(transport, started);
      }
    },
  });

  return server;
}

/** Who calls without keys: the local operator, who may do anything a maintainer may. */
const LOCAL_OPERATOR: Caller = { role: "maintainer", id: "local" };

/** Aborted when the client goes away before the answer, so running tool calls are cancelled. */
function abortedWithClient(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("the client disconnected"));
  });
  return controller.signal;
}

export type HttpServer = Awaited<ReturnType<typeof createHttpServer>>;
