// The MCP face of Switchboard: a whole catalog behind four tools. Input validation is the SDK's: a call
// whose arguments fail the zod schema comes back as a tool result with isError: true (not a protocol
// error), as the 2025-11-25 specification asks, so the model can correct itself. The same holds for
// Switchboard's own errors (unknown tool, invalid arguments of the routed tool). route_and_execute asks
// the user for a missing value by elicitation when the client declared it can (elicitation.ts).
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  type RouteAndExecuteResponse,
  routeAndExecuteRequestSchema,
  routeRequestSchema,
  type Switchboard,
  synthesizeRequestSchema,
} from "../app/index.ts";
import { VERSION } from "../config/index.ts";
import type { Role } from "./auth.ts";
import { elicitingAsker } from "./elicitation.ts";
import { callResultView, routeAndExecuteView } from "./views.ts";

export interface McpOptions {
  /** Whether synthesize_tool is offered: only to maintainers over HTTP; always over stdio (local user). */
  allowSynthesis: boolean;
  /** Whose view of provider ids call results carry (views.ts); stdio is the local operator's own. */
  role?: Role;
  /**
   * Who the client is (the key's id over HTTP): its MCP session's context is kept under this scope. A
   * transport without sessions (stdio) makes this server one session.
   */
  callerId?: string;
}

function result(value: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

const MAX_IMAGES = 8;

interface ImageData {
  type: "image";
  mimeType: string;
  data: string;
}

function isImage(value: unknown): value is ImageData {
  const candidate = value as Partial<ImageData> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate.type === "image" &&
    typeof candidate.mimeType === "string" &&
    /^image\/(png|jpeg|gif|webp)$/.test(candidate.mimeType) &&
    typeof candidate.data === "string"
  );
}

/**
 * A call's output with each image (what ctx.browser.screenshot() returns) moved into MCP image content,
 * leaving a note in its place, so clients show the picture and the JSON does not carry it twice.
 */
function withImages(value: unknown, images: ImageData[], depth = 0): unknown {
  if (depth > 20 || typeof value !== "object" || value === null) return value;
  if (isImage(value) && images.length < MAX_IMAGES) {
    images.push({ type: "image", mimeType: value.mimeType, data: value.data });
    return { type: "image", mimeType: value.mimeType, content: images.length };
  }
  if (Array.isArray(value)) return value.map((item) => withImages(item, images, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, withImages(item, images, depth + 1)]),
  );
}

function callResult(call: unknown, isError: boolean): CallToolResult {
  const images: ImageData[] = [];
  const value = withImages(call, images);
  const answer = result(value, isError);
  return { ...answer, content: [...answer.content, ...images] };
}

/**
 * `app` may still be opening (MCP over stdio answers `initialize` before the catalog is loaded): each tool
 * call waits for it.
 */
export function createMcpServer(app: Switchboard | Promise<Switchboard>, options: McpOptions): McpServer {
  const ownSession = randomUUID();
  // Who the client is, for which tools it may use: over HTTP its key; over stdio the local operator.
  const viewer =
    options.callerId === undefined ? undefined : { role: options.role ?? "maintainer", id: options.callerId };
  const sessionOf = (transportSession: string | undefined) =>
    `${options.callerId ?? "local"}/mcp:${transportSession ?? ownSession}`;
  const server = new McpServer(
    { name: "switchboard", version: VERSION },
    {
      instructions:
        "Call search_tools with what you want to do, pick a tool from its answer, then call_tool with that " +
        "tool's name and arguments; or let route_and_execute pick the tool and fill its arguments from your " +
        "words. If nothing fits, synthesize_tool can create one.",
    },
  );

  server.registerTool(
    "search_tools",
    {
      title: "Search tools",
      description:
        "Find the tools that fit a task described in plain words. Returns up to topK tools with their " +
        "definitions (input schemas), scores and whether the best one clears the confidence threshold.",
      inputSchema: routeRequestSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => result(await (await app).route(args, viewer)),
  );

  server.registerTool(
    "call_tool",
    {
      title: "Call a tool",
      description:
        "Run one catalog tool by name with its arguments (as found by search_tools) through Switchboard's " +
        "dispatcher: retries, circuit breakers, fallbacks and result budgets apply.",
      inputSchema: z.strictObject({
        name: z.string().min(1).meta({ description: "Tool name from search_tools" }),
        arguments: z.record(z.string(), z.unknown()).default({}),
      }),
      annotations: { openWorldHint: true },
    },
    async ({ name, arguments: args }, extra) => {
      // Scoped like /v1/execute's ids (routes.ts), so the key's executions list shows its MCP calls.
      const id = randomUUID();
      const [scoped] = await (await app).execute(
        [{ id: `${options.callerId ?? "local"}/${id}`, name, arguments: args }],
        {
          signal: extra.signal,
          session: sessionOf(extra.sessionId),
          ...(viewer ? { viewer } : {}),
          caller: options.callerId ?? "local",
        },
      );
      const call = scoped && { ...scoped, id };
      return callResult(
        call && callResultView(options.role ?? "maintainer", call),
        call?.status !== "completed",
      );
    },
  );

  // The MCP session is the context's session: a sessionId in the arguments would name another one.
  const routeAndExecuteArguments = routeAndExecuteRequestSchema.omit({ sessionId: true });
  const failed = new Set<RouteAndExecuteResponse["status"]>([
    "failed",
    "invalid_arguments",
    "synthesis_failed",
  ]);
  server.registerTool(
    "route_and_execute",
    {
      title: "Route and execute",
      description:
        "Say what you want in plain words (with arguments if you have them): the best tool is picked, its " +
        "arguments are filled from the request, and it runs. Every step is returned. A missing value is " +
        "asked of the user when the client supports elicitation; otherwise the answer is needs_input with " +
        "the missing fields and a question.",
      inputSchema: routeAndExecuteArguments,
      annotations: { openWorldHint: true },
    },
    async (args, extra) => {
      const canElicit = server.server.getClientCapabilities()?.elicitation?.form !== undefined;
      const answer = await (await app).routeAndExecute(args, {
        session: sessionOf(extra.sessionId),
        owner: options.callerId ?? "local",
        ...(viewer ? { viewer } : {}),
        ...(canElicit ? { ask: elicitingAsker(extra) } : {}),
      });
      return callResult(routeAndExecuteView(options.role ?? "maintainer", answer), failed.has(answer.status));
    },
  );

  if (options.allowSynthesis) {
    server.registerTool(
      "synthesize_tool",
      {
        title: "Synthesize a tool",
        description:
          "Create a new sandboxed JavaScript tool when no catalog tool fits: give its name, description and " +
          "input schema, and either its code (async function <name>(args, ctx)) or nothing, to have the " +
          "configured LLM write it. It is checked, tested on the examples, and registered.",
        inputSchema: synthesizeRequestSchema,
        annotations: { openWorldHint: false },
      },
      async (args) => {
        const outcome = await (await app).synthesize(args, viewer);
        return result(outcome, !outcome.ok);
      },
    );
  }
  return server;
}
