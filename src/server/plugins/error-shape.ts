// One error shape for every failure (problems.ts): thrown errors, Fastify's own, an unknown path (404) and a
// known path with the wrong method (405, with the Allow header).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { problem, toProblem } from "../problems.ts";

/** The methods a 405's Allow header may name (HEAD comes with every GET route). */
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export interface ErrorShapeOptions {
  bodyLimit: number;
}

async function errorShape(server: FastifyInstance, { bodyLimit }: ErrorShapeOptions): Promise<void> {
  server.setErrorHandler((error, request, reply) => {
    const { status, body, headers } = toProblem(error, bodyLimit);
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
}

// fastify-plugin: the error handler and the not-found handler belong to the root, so that every scope
// registered after it answers failures in the one shape.
export const errorShapePlugin = fp(errorShape, { name: "switchboard-error-shape", fastify: "5.x" });
