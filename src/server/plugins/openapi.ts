// The OpenAPI document of the route table, generated once at start (openapi.ts), public.
import type { FastifyInstance } from "fastify";
import { VERSION } from "../../config/index.ts";
import { openApiDocument } from "../openapi.ts";
import type { ApiRoute } from "../routes.ts";

export interface OpenApiOptions {
  routes: ApiRoute[];
}

export async function openApiPlugin(server: FastifyInstance, { routes }: OpenApiOptions): Promise<void> {
  const document = openApiDocument(routes, VERSION);
  server.get("/openapi.json", async () => document);
}
