// The root Fastify instance's options: what must hold before any plugin runs (body limit, request ids,
// answers to what fails before routing, one log line per request).
import { randomUUID } from "node:crypto";
import { type FastifyReply, type FastifyServerOptions, LogController } from "fastify";
import type { Logger } from "../config/index.ts";
import { clientErrorAnswer, MAX_PARAM_LENGTH, toProblem } from "./problems.ts";

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function fastifyOptions(logger: Logger) {
  return {
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // A caller's x-request-id is kept only when it looks like an id: it goes into every log line and back
    // in the answer, so 16 KB of text or another request's id must not.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests arriving while draining are refused by the drain plugin, in the documented error shape.
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
    // One log line per request (the request-log plugin) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  } satisfies FastifyServerOptions & { loggerInstance: Logger };
}
