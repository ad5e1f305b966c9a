// The /v1 API from its route table (routes.ts): each route's body and query parsed by its zod schema (a 400
// naming the field), its work raced against the drain's deadline and cancelled when the client goes away.
// Read-only routes count their key alongside their work (rate-limit.ts).
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AppGate } from "../app-gate.ts";
import { HttpError, parseOr400 } from "../problems.ts";
import type { ApiRoute } from "../routes.ts";
import { callerOf } from "./authentication.ts";

export interface V1RoutesOptions {
  app: AppGate;
  routes: ApiRoute[];
}

export async function v1RoutesPlugin(
  server: FastifyInstance,
  { app, routes }: V1RoutesOptions,
): Promise<void> {
  const { drain } = server;
  for (const route of routes) {
    server.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ":$1"),
      config: { access: route.access, ...(route.readOnly ? { rateLimit: false as const } : {}) },
      ...(route.readOnly ? { onRequest: server.limitAlongside } : {}),
      handler: async (request, reply) => {
        const work = (async () => {
          if (route.body && request.body === undefined)
            throw new HttpError(400, "empty_body", "the request has no JSON body; this endpoint needs one");
          const body = route.body ? parseOr400(route.body, request.body, "body") : undefined;
          const query = route.query ? parseOr400(route.query, request.query, "query") : undefined;
          // The signal is made when a handler reads it: most (routing, reads) never do.
          let signal: AbortSignal | undefined;
          return drain.race(
            route.handle({
              app: app.ready(),
              body,
              query,
              params: request.params as Record<string, string>,
              get signal() {
                signal ??= AbortSignal.any([abortedWithClient(reply), drain.signal]);
                return signal;
              },
              caller: callerOf(request),
            }),
          );
        })();
        // A refusal wins over the work's answer or error, as when the limit is checked first.
        const [verdict, outcome] = await Promise.allSettled([request.limitVerdict, work]);
        if (verdict.status === "rejected") throw verdict.reason;
        if (outcome.status === "rejected") throw outcome.reason;
        if (route.serialize) reply.serializer(route.serialize as (answer: unknown) => string);
        return reply.status(route.statusOf?.(outcome.value) ?? 200).send(outcome.value);
      },
    });
  }
}

/** Aborted when the client goes away before the answer, so running tool calls are cancelled. */
function abortedWithClient(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("the client disconnected"));
  };
  if (reply.raw.closed) gone();
  else reply.raw.once("close", gone);
  return controller.signal;
}
