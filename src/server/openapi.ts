// The OpenAPI 3.1 document, generated from the route table and its zod schemas (zod 4 emits JSON Schema
// 2020-12, which OpenAPI 3.1 uses as is). Hand-built rather than @fastify/swagger because the bodies are
// validated by zod, not by Fastify's own JSON Schema pipeline, which that plugin reads.
import { z } from "zod";
import type { ApiRoute } from "./routes.ts";

const errorSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        issues: {
          type: "array",
          items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } },
        },
      },
      required: ["code", "message"],
    },
  },
  required: ["error"],
};

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const PUBLIC_PATHS = {
  "/healthz": { get: { summary: "Liveness", security: [], responses: { 200: { description: "alive" } } } },
  "/readyz": {
    get: {
      summary: "Ready once the index is loaded",
      security: [],
      responses: { 200: { description: "ready" }, 503: errorResponse("still loading the index") },
    },
  },
  "/metrics": {
    get: {
      summary: "Prometheus metrics (any key, when keys are configured)",
      responses: { 200: { description: "text format" }, 401: errorResponse("missing or unknown API key") },
    },
  },
  "/mcp": {
    post: {
      summary: "MCP Streamable HTTP endpoint (search_tools, call_tool, synthesize_tool)",
      responses: { 200: { description: "JSON-RPC response" } },
    },
  },
};

export function openApiDocument(routes: ApiRoute[], version: string): object {
  const paths: Record<string, Record<string, unknown>> = structuredClone(PUBLIC_PATHS);
  const components: Record<string, unknown> = { Error: errorSchema };
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      description: `Role: ${route.access}.`,
      responses: {
        200: { description: "OK", content: { "application/json": { schema: {} } } },
        400: errorResponse(
          "malformed JSON or a body that does not match the schema (issues name each field)",
        ),
        401: errorResponse("missing or unknown API key; the WWW-Authenticate header says which (RFC 6750)"),
        403: errorResponse(
          "the key's role may not do this, or (without keys) the Host or Origin is not loopback",
        ),
        413: errorResponse("body larger than the limit"),
        429: errorResponse(
          "rate limit of this key exceeded, or too many wrong keys from this address (Retry-After)",
        ),
        503: errorResponse("still loading the index, or shutting down"),
      },
    };
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (params.length > 0)
      operation.parameters = params.map((name) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
    if (route.path.includes("{"))
      (operation.responses as Record<string, unknown>)[404] = errorResponse("no such tool");
    if (route.body) {
      // Named schemas (zod meta ids) become OpenAPI components instead of per-operation $defs.
      const generated = JSON.stringify(z.toJSONSchema(route.body, { io: "input", unrepresentable: "any" }));
      const {
        $schema: _,
        $defs,
        ...schema
      } = JSON.parse(generated.replaceAll('"#/$defs/', '"#/components/schemas/'));
      Object.assign(components, $defs);
      operation.requestBody = { required: true, content: { "application/json": { schema } } };
    }
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation;
    paths[route.path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchboard",
      version,
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
