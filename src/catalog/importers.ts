// The importers are loaded on first use: swagger-parser and the MCP client are only needed by
// `catalog import`, not by everything else that reads the catalog.
import type { McpImport } from "./import-mcp.ts";
import type { OpenApiImport } from "./import-openapi.ts";

export type { McpImport, OpenApiImport };

/** Reads an OpenAPI 3 document (file path or URL, JSON or YAML) and returns one tool per operation. */
export async function importOpenApi(spec: string): Promise<OpenApiImport> {
  return (await import("./import-openapi.ts")).importOpenApi(spec);
}

/** Starts `command args…` as an MCP stdio server and returns its tools, following list pagination. */
export async function importMcp(command: string, args: string[]): Promise<McpImport> {
  return (await import("./import-mcp.ts")).importMcp(command, args);
}
