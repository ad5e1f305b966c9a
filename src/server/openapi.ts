// The OpenAPI 3.1 document, generated from the route table and its zod schemas (zod 4 emits JSON Schema
// 2020-12, which OpenAPI 3.1 uses as is). Hand-built rather than @fastify/swagger because the bodies are
// validated by zod, not by Fastify's own JSON Schema pipeline, which that plugin reads.
import { z } from "zod";
import { errorResponseSchema } from "../app/index.ts";
import type { ApiRoute } from "./routes.ts";

/** Named schemas (zod meta ids) collected as OpenAPI components instead of per-operation $defs. */
type Components = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output", components: Components): object {
  const generated = JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: "any" }));
  const {
    $schema: _,
    $defs,
    ...rest
  } = JSON.parse(generated.replaceAll('"#/$defs/', '"#/components/schemas/'));
  Object.assign(components, $defs);
  // A named schema at the root is a component too; the operation points at it.
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) return rest;
  if (!$defs?.[id]) components[id] = rest;
  return { $ref: `#/components/schemas/${id}` };
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** Without keys the service answers loopback callers only (SECURITY.md), on every path. */
const nonLoopback = errorResponse("without keys, the Host or Origin is not loopback");

const mcpSession = (required: boolean) => ({
  name: "mcp-session-id",
  in: "header",
  required,
  description: "the session id the initialize answer gave",
  schema: { type: "string" },
});

const mcpAnswer = (description: string) => ({
  description,
  content: {
    "application/json": { schema: { type: "object", description: "a JSON-RPC 2.0 message or batch" } },
    "text/event-stream": { schema: { type: "string" } },
  },
});

const mcpErrors = {
  400: mcpAnswer("a JSON-RPC error: the message is invalid, or a session id is missing"),
  401: errorResponse("missing or unknown API key; the WWW-Authenticate header says which (RFC 6750)"),
  403: nonLoopback,
  404: mcpAnswer("a JSON-RPC error: the session is unknown or expired; initialize a new one"),
};

function publicPaths(components: Components): Record<string, Record<string, unknown>> {
  const status = (value: string) => ({
    "application/json": { schema: jsonSchema(z.object({ status: z.literal(value) }), "output", components) },
  });
  return {
    "/healthz": {
      get: {
        operationId: "getHealth",
        summary: "Liveness",
        security: [],
        responses: { 200: { description: "alive", content: status("ok") }, 403: nonLoopback },
      },
    },
    "/readyz": {
      get: {
        operationId: "getReadiness",
        summary: "Ready once the index is loaded",
        security: [],
        responses: {
          200: {
            description:
              "ready; `index.dense` is named while a large catalog's dense index fills (routes use BM25 and trigrams until then), `embedder` when a fallback runtime stands in, `stores` when shared stores are configured",
            content: status("ready"),
          },
          403: nonLoopback,
          503: errorResponse("still loading the index"),
        },
      },
    },
    "/metrics": {
      get: {
        operationId: "getMetrics",
        summary: "Prometheus metrics (any key, when keys are configured)",
        responses: {
          200: { description: "text format", content: { "text/plain": { schema: { type: "string" } } } },
          401: errorResponse("missing or unknown API key"),
        },
      },
    },
    // MCP's Streamable HTTP transport (its own specification defines the messages): documented so that
    // clients and gateways know the three methods, their session header and their errors.
    "/mcp": {
      post: {
        operationId: "mcpSend",
        summary:
          "MCP Streamable HTTP: send a JSON-RPC message (search_tools, call_tool, route_and_execute, synthesize_tool)",
        description:
          "Role: agent. The first message (initialize) starts a session whose id comes back in the Mcp-Session-Id header; later messages carry it.",
        parameters: [mcpSession(false)],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", description: "a JSON-RPC 2.0 message or batch" },
            },
          },
        },
        responses: {
          200: mcpAnswer("the JSON-RPC response, as JSON or as a text/event-stream"),
          202: { description: "a notification or response was accepted" },
          ...mcpErrors,
        },
      },
      get: {
        operationId: "mcpListen",
        summary: "MCP Streamable HTTP: open the session's stream of server messages (text/event-stream)",
        description:
          "Role: agent. The server's requests and notifications to the client arrive on this stream.",
        parameters: [mcpSession(true)],
        responses: {
          200: {
            description: "the event stream",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...mcpErrors,
        },
      },
      delete: {
        operationId: "mcpEndSession",
        summary: "MCP Streamable HTTP: end the session",
        description: "Role: agent. No body; a Content-Type header without one is accepted.",
        parameters: [mcpSession(true)],
        responses: { 200: { description: "the session is closed" }, ...mcpErrors },
      },
    },
  };
}

export function openApiDocument(routes: ApiRoute[], version: string): object {
  const components: Components = {};
  jsonSchema(errorResponseSchema, "output", components);
  const paths = publicPaths(components);
  for (const route of routes) {
    const responses: Record<number, unknown> = {
      200: {
        description: "OK",
        content: { "application/json": { schema: jsonSchema(route.response, "output", components) } },
      },
      401: errorResponse("missing or unknown API key; the WWW-Authenticate header says which (RFC 6750)"),
      403: errorResponse(
        "the key's role may not do this, or (without keys) the Host or Origin is not loopback",
      ),
      429: errorResponse(
        "rate limit of this key exceeded, or too many wrong keys from this address (Retry-After)",
      ),
      500: errorResponse("an unexpected failure; the request id is in the logs"),
      503: errorResponse("still loading the index, shutting down, or failed to start"),
    };
    if (route.body) {
      responses[400] = errorResponse(
        "malformed JSON or a body that does not match the schema (issues name each field)",
      );
      responses[413] = errorResponse("body larger than the limit");
      responses[415] = errorResponse("the body is not JSON");
    }
    for (const [status, error] of Object.entries(route.errors ?? {}))
      responses[Number(status)] = error.schema
        ? {
            description: error.description,
            content: { "application/json": { schema: jsonSchema(error.schema, "output", components) } },
          }
        : errorResponse(error.description);
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      description: `Role: ${route.access}.`,
      responses,
    };
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const parameters: object[] = params.map((name) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (route.query) {
      responses[400] ??= errorResponse("a query parameter that does not match its schema, or an unknown one");
      const { properties = {}, required = [] } = jsonSchema(route.query, "input", components) as {
        properties?: Record<string, { description?: string }>;
        required?: string[];
      };
      for (const [name, schema] of Object.entries(properties))
        parameters.push({
          name,
          in: "query",
          required: required.includes(name),
          ...(schema.description ? { description: schema.description } : {}),
          schema,
        });
    }
    if (parameters.length > 0) operation.parameters = parameters;
    if (route.body)
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: jsonSchema(route.body, "input", components) } },
      };
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation;
    paths[route.path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchboard",
      version,
      license: { name: "MIT", identifier: "MIT" },
      description: "Route agents to tools, execute calls resiliently, synthesize missing tools.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: components,
    },
    paths,
  };
}
