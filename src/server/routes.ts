// The HTTP API as one table: method, path, role, body schema and handler. The server registers it and the
// OpenAPI document is generated from it, so the two cannot drift apart.
import type { z } from "zod";
import {
  AppError,
  breakersResponseSchema,
  deletedResponseSchema,
  EXECUTIONS_PER_KEY,
  executeRequestSchema,
  executeResponseSchema,
  executionsQuerySchema,
  executionsResponseSchema,
  feedbackRequestSchema,
  feedbackResponseSchema,
  feedbackVotesResponseSchema,
  inspectRequestSchema,
  inspectResponseSchema,
  promoteResponseSchema,
  routeAndExecuteRequestSchema,
  routeAndExecuteResponseSchema,
  routeEvaluationRequestSchema,
  routeEvaluationResponseSchema,
  routeRequestSchema,
  routeResponseSchema,
  type Switchboard,
  serializeRouteResponse,
  synthesisResponseSchema,
  synthesizeRequestSchema,
  toolListQuerySchema,
  toolListResponseSchema,
  toolResponseSchema,
  toolSchema,
  toolViewResponseSchema,
  whoamiResponseSchema,
} from "../app/index.ts";
import { unknownToolMessage } from "../catalog/index.ts";
import { type Access, AuthError, type Caller } from "./auth.ts";
import { breakerView, callResultView, executionView, routeAndExecuteView, toolView } from "./views.ts";

export interface RouteContext<B, Q = undefined> {
  app: Switchboard;
  body: B;
  /** The query string, parsed by the route's `query` schema. */
  query: Q;
  params: Record<string, string>;
  signal: AbortSignal;
  caller: Caller;
}

/** A caller's session, as the app keys it: one key's session ids never reach another key's contexts. */
export function sessionKey(caller: Caller, sessionId: string | undefined): string | undefined {
  return sessionId === undefined ? undefined : `${caller.id}/${sessionId}`;
}

/**
 * A call id as the dispatcher sees it: the dispatcher shares a running call's result with a call of the same
 * id (and replicas remember a write's result by it), so ids are scoped to the key that chose them. Another
 * key reusing an id seen in /v1/executions gets neither that call's result nor a share in its run.
 */
function scopedCallId(caller: Caller, id: string): string {
  return `${caller.id}/${id}`;
}

/**
 * The executions a caller may see: an agent key its own calls (ids as it sent them), a maintainer key
 * everyone's, each id prefixed by its owner's key id, filtered by key, tool and status.
 */
function visibleExecutions(app: Switchboard, caller: Caller, query: z.infer<typeof executionsQuerySchema>) {
  if (caller.role === "maintainer") return app.executions(query);
  if (query.key !== undefined && query.key !== caller.id)
    throw new AuthError(403, "an agent key sees its own executions only: leave out query.key");
  const prefix = scopedCallId(caller, "");
  return app
    .executions({ ...query, key: caller.id })
    .map((record) => executionView(caller.role, { ...record, id: record.id.slice(prefix.length) }));
}

export interface ApiRoute<S extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType> {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The OpenAPI operationId: generated clients name their methods by it, so it never changes. */
  operationId: string;
  /** OpenAPI-style path; `{name}` becomes Fastify's `:name`. */
  path: string;
  access: Access;
  summary: string;
  body?: S;
  /** The query string's parameters (each a string, or absent); a bad or unknown one is a 400. */
  query?: Q;
  /** The success answer's schema, for the OpenAPI document. */
  response: z.ZodType;
  /**
   * Error answers particular to this route (the common ones, such as 400, 401 and 503, are added to every
   * route), each with its meaning and, when it is not the common error shape, its schema.
   */
  errors?: Record<number, { description: string; schema?: z.ZodType }>;
  /**
   * The handler changes nothing (routing, reads): its rate-limit check may run alongside it instead of
   * before it, since an answer refused at the end leaves nothing done behind (see plugins/rate-limit.ts).
   */
  readOnly?: true;
  /** The success status when it depends on the answer (default 200). */
  statusOf?(answer: unknown): number;
  /** Writes the success answer as JSON faster than JSON.stringify (same value); default JSON.stringify. */
  serialize?(answer: never): string;
  handle(context: RouteContext<z.infer<S>, z.infer<Q>>): Promise<unknown>;
}

function route<S extends z.ZodType, Q extends z.ZodType = z.ZodUndefined>(spec: ApiRoute<S, Q>): ApiRoute {
  return spec as unknown as ApiRoute;
}

/** The tool `caller` may use: another key's pending tool is as unknown as a missing one. */
function toolNamed(app: Switchboard, name: string, caller?: Caller) {
  const tool = app.getTool(name, caller);
  if (!tool)
    throw new AppError(
      "not_found",
      unknownToolMessage(
        name,
        app.listTools(caller).map((t) => t.name),
      ),
    );
  return tool;
}

export const apiRoutes: ApiRoute[] = [
  route({
    method: "POST",
    path: "/v1/route",
    operationId: "routeQuery",
    response: routeResponseSchema,
    errors: {
      422: { description: "the query cannot be routed (e.g. nothing left of it after normalising)" },
    },
    access: "agent",
    readOnly: true,
    summary: "Find the tools for a query, with definitions in the requested format and the context saved",
    body: routeRequestSchema,
    serialize: serializeRouteResponse,
    handle: ({ app, body, caller }) => app.route(body, caller),
  }),
  route({
    method: "POST",
    path: "/v1/execute",
    operationId: "executeCalls",
    response: executeResponseSchema,
    errors: {
      503: {
        description:
          "still loading the index, shutting down, or (session_unavailable) the sessionId's shared session store (Redis) is away",
      },
    },
    access: "agent",
    summary: "Run tool calls through the dispatcher; results in call order",
    body: executeRequestSchema,
    handle: async ({ app, body, signal, caller }) => {
      const calls = body.calls.map((c) => ({ ...c, id: scopedCallId(caller, c.id) }));
      const results = await app.execute(calls, {
        signal,
        session: sessionKey(caller, body.sessionId),
        viewer: caller,
        caller: caller.id,
      });
      return {
        results: results.map((r, i) => callResultView(caller.role, { ...r, id: body.calls[i]?.id ?? r.id })),
      };
    },
  }),
  route({
    method: "POST",
    path: "/v1/route-and-execute",
    operationId: "routeAndExecute",
    response: routeAndExecuteResponseSchema,
    errors: {
      503: {
        description:
          "still loading the index, shutting down, the configured LLM could not be reached to write a missing tool, or (session_unavailable) the sessionId's shared session store (Redis) is away",
      },
    },
    access: "agent",
    summary: "Route a query and run the best tool (or synthesize one); every step is returned",
    body: routeAndExecuteRequestSchema,
    handle: async ({ app, body, caller }) =>
      routeAndExecuteView(
        caller.role,
        await app.routeAndExecute(body, {
          session: sessionKey(caller, body.sessionId),
          owner: caller.id,
          viewer: caller,
        }),
      ),
  }),
  route({
    method: "POST",
    path: "/v1/feedback",
    operationId: "sendFeedback",
    response: feedbackResponseSchema,
    errors: { 404: { description: "a pair names a tool that does not exist (each is named)" } },
    access: "agent",
    summary:
      "Confirm query → tool pairs (at most 100), so routing learns from use: a maintainer's pairs at once, an " +
      "agent key's once enough distinct agent keys agree, never an agent's for a possibly destructive tool",
    body: feedbackRequestSchema,
    handle: ({ app, body, caller }) => app.feedback(body.pairs, caller),
  }),
  route({
    method: "POST",
    path: "/v1/tools/synthesize",
    operationId: "synthesizeTool",
    response: synthesisResponseSchema,
    errors: {
      422: {
        description: "the tool failed a check: the stage and each problem",
        schema: synthesisResponseSchema,
      },
      503: { description: "the configured LLM could not be reached" },
    },
    access: "maintainer",
    summary: "Synthesize a tool (from code, or from the description when an LLM is configured)",
    body: synthesizeRequestSchema,
    // A tool that fails a check is not registered: 422 with the stage and each problem.
    statusOf: (answer) => ((answer as { ok: boolean }).ok ? 200 : 422),
    handle: ({ app, body, caller }) => app.synthesize(body, caller),
  }),
  route({
    method: "POST",
    path: "/v1/inspect",
    operationId: "inspectPage",
    // Maintainer only: it makes the service load a page (within the egress rules) on the caller's behalf,
    // the same trust as synthesizing a tool that would fetch it.
    access: "maintainer",
    summary: "Load a page statically and in the browser: static or dynamic, and selectors for its lists",
    body: inspectRequestSchema,
    response: inspectResponseSchema,
    handle: ({ app, body }) => app.inspect(body),
  }),
  route({
    method: "GET",
    path: "/v1/tools",
    operationId: "listTools",
    access: "agent",
    readOnly: true,
    summary:
      "List the tools this key may use, each with its provenance (origin; for synthesized ones status, owner, " +
      "time and request): a maintainer key sees every tool, pending ones included, for review",
    query: toolListQuerySchema,
    response: toolListResponseSchema,
    handle: async ({ app, caller, query }) => ({
      tools: app
        .toolListing(caller)
        .filter(
          (t) =>
            (query.origin === undefined || t.origin === query.origin) &&
            (query.status === undefined || t.synthesis?.status === query.status),
        ),
    }),
  }),
  route({
    method: "POST",
    path: "/v1/tools/{name}/promote",
    operationId: "promoteTool",
    access: "maintainer",
    summary:
      "Publish a pending synthesized tool (written for one agent key's request): from now on it is routed " +
      "for every key. Review it first with GET /v1/tools/{name}; DELETE it instead to refuse it",
    response: promoteResponseSchema,
    errors: {
      404: { description: "no such tool" },
      409: { description: "the tool is already published (catalog, API or promoted)" },
    },
    handle: async ({ app, params, caller }) => ({
      promoted: await app.promoteTool(params.name ?? "", caller),
    }),
  }),
  route({
    method: "GET",
    path: "/v1/tools/{name}",
    operationId: "getTool",
    access: "agent",
    readOnly: true,
    summary:
      "One tool's definition: in full for a maintainer key, without its binding and policy for an agent key",
    response: toolViewResponseSchema,
    errors: { 404: { description: "no such tool" } },
    handle: async ({ app, params, caller }) =>
      toolView(caller.role, toolNamed(app, params.name ?? "", caller)),
  }),
  route({
    method: "PUT",
    path: "/v1/tools/{name}",
    operationId: "putTool",
    access: "maintainer",
    summary: "Add or replace a tool; the index is updated incrementally",
    response: toolResponseSchema,
    errors: { 422: { description: "the tool is invalid: every problem is listed in issues" } },
    body: toolSchema.partial({ name: true }),
    handle: async ({ app, body, params }) => {
      const name = params.name ?? "";
      if (body.name !== undefined && body.name !== name)
        throw new AppError("invalid", `body.name "${body.name}" differs from the path's tool name "${name}"`);
      return app.putTool({ ...body, name });
    },
  }),
  route({
    method: "DELETE",
    path: "/v1/tools/{name}",
    operationId: "deleteTool",
    access: "maintainer",
    summary: "Remove a tool; the index is updated incrementally",
    response: deletedResponseSchema,
    errors: { 404: { description: "no such tool" } },
    handle: async ({ app, params, caller }) => {
      const name = params.name ?? "";
      toolNamed(app, name);
      await app.deleteTool(name, caller);
      return { deleted: name };
    },
  }),
  route({
    method: "GET",
    path: "/v1/executions",
    operationId: "listExecutions",
    access: "agent",
    readOnly: true,
    summary:
      `Recent executions with their provenance, newest first: an agent key sees its own calls (the last ${EXECUTIONS_PER_KEY} ` +
      "finished ones are kept per key, so no other key's calls push them out), a maintainer key every key's, " +
      "each id prefixed by its key id (agent:1a2b3c4d5e6f/…), filtered by key, tool and status",
    query: executionsQuerySchema,
    response: executionsResponseSchema,
    handle: async ({ app, caller, query }) => ({ executions: visibleExecutions(app, caller, query) }),
  }),
  route({
    method: "GET",
    path: "/v1/breakers",
    operationId: "listBreakers",
    access: "agent",
    readOnly: true,
    summary: "Circuit breaker state per tool provider (providers named in full for a maintainer key only)",
    response: breakersResponseSchema,
    handle: async ({ app, caller }) => ({
      breakers: (app.breakers() as { provider: string }[]).map((breaker) =>
        breakerView(caller.role, breaker),
      ),
    }),
  }),
  route({
    method: "GET",
    path: "/v1/whoami",
    operationId: "whoAmI",
    access: "agent",
    readOnly: true,
    summary:
      "The calling key's role and id (local without keys): what a client such as the console may offer",
    response: whoamiResponseSchema,
    handle: async ({ caller }) => ({ role: caller.role, id: caller.id }),
  }),
  route({
    method: "GET",
    path: "/v1/feedback/votes",
    operationId: "listFeedbackVotes",
    access: "maintainer",
    readOnly: true,
    summary: "Agent keys' feedback votes still short of the quorum, oldest first",
    response: feedbackVotesResponseSchema,
    handle: async ({ app }) => ({ votes: await app.feedbackVotes() }),
  }),
  route({
    method: "POST",
    path: "/v1/eval",
    operationId: "evaluateRouting",
    access: "maintainer",
    // It changes nothing, but it routes up to a thousand queries: counted before it runs, like a write.
    summary:
      "Route labelled queries (the catalog's own set or up to 1000 sent) and report hit@1, recall@K, no-tool " +
      "AUROC, the score distributions and the most confused pairs of tools",
    body: routeEvaluationRequestSchema,
    response: routeEvaluationResponseSchema,
    errors: { 404: { description: "set catalog: this catalog ships no labelled queries" } },
    handle: ({ app, body }) => app.evaluateRouting(body),
  }),
];
