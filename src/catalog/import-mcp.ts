// Turns the tools of an MCP stdio server into catalog tools with an `mcp` binding: the official SDK client
// starts the server, lists every page of its tools and stops it again.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { importedName } from "./admission.ts";
import { withoutUnsafePatterns } from "./regex.ts";
import type { Tool } from "./schema.ts";

export interface McpImport {
  tools: Tool[];
  /** Tools that needed a change to fit the catalog format (each names the tool). */
  warnings: string[];
}

function toCatalogTool(tool: McpTool, command: string, args: string[], warnings: string[]): Tool {
  let description = tool.description?.trim();
  if (!description) {
    description = tool.title ?? tool.annotations?.title ?? tool.name;
    warnings.push(
      `${tool.name}: the server gives no description; used "${description}" (routing needs a real one)`,
    );
  }
  const name = importedName(tool.name);
  if (name !== tool.name)
    warnings.push(
      `${JSON.stringify(tool.name)}: renamed ${name} to fit the MCP tool-name rule (calls still use the server's name)`,
    );
  const imported: Tool = {
    name,
    description,
    inputSchema: tool.inputSchema,
    binding: { type: "mcp", command, args, tool: tool.name },
  };
  if (tool.title) imported.title = tool.title;
  if (tool.outputSchema) imported.outputSchema = tool.outputSchema;
  if (tool.annotations) imported.annotations = tool.annotations;
  return imported;
}

/** Starts `command args…` as an MCP stdio server and returns its tools, following list pagination. */
export async function importMcp(command: string, args: string[]): Promise<McpImport> {
  const server = [command, ...args].join(" ");
  const client = new Client({ name: "switchboard-import", version: "1.0.0" });
  try {
    await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));
    const listed: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const warnings: string[] = [];
    const tools = listed.map((tool) => toCatalogTool(tool, command, args, warnings));
    if (tools.length === 0) warnings.push(`${server}: the server lists no tools`);
    return { tools: withoutUnsafePatterns(tools, warnings), warnings };
  } catch (error) {
    throw new Error(`cannot import from the MCP server "${server}": ${(error as Error).message}`);
  } finally {
    await client.close();
  }
}
