// Draining on shutdown (drain.ts): once the server closes, new requests are refused 503 shutting_down and
// answers close their connection, so close() does not wait out keep-alive timeouts. Routes race their work
// against the drain's deadline through the `drain` decorator.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Drain } from "../drain.ts";
import { HttpError } from "../problems.ts";

/** How long a shutdown waits for running requests before answering them 503 shutting_down. */
export const DRAIN_DEADLINE_MS = 10_000;

declare module "fastify" {
  interface FastifyInstance {
    drain: Drain;
  }
}

export interface DrainOptions {
  /** Default DRAIN_DEADLINE_MS. */
  deadlineMs?: number;
}

async function drainOnClose(server: FastifyInstance, options: DrainOptions): Promise<void> {
  const drain = new Drain();
  server.decorate("drain", drain);
  server.addHook("onRequest", async () => {
    if (drain.draining)
      throw new HttpError(503, "shutting_down", "the service is shutting down; send the request again later");
  });
  server.addHook("preClose", async () => {
    drain.start(options.deadlineMs ?? DRAIN_DEADLINE_MS);
  });
  server.addHook("onSend", async (_request, reply) => {
    if (drain.draining) reply.header("connection", "close");
  });
}

// fastify-plugin: every request is refused while draining, the not-found answer included, and the
// `drain` decorator must reach the route scopes.
export const drainPlugin = fp(drainOnClose, { name: "switchboard-drain", fastify: "5.x" });
