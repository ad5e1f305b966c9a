// MCP over Streamable HTTP at /mcp, with sessions (mcp-sessions.ts); the caller's role decides, when the
// session starts, whether synthesize_tool is offered. Draining ends the sessions' notification streams
// (GET), which would otherwise hold the server open until the drain deadline; calls in flight finish.
// Closing ends the sessions.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyInstance } from "fastify";
import type { AppGate } from "../app-gate.ts";
import { createMcpServer } from "../mcp.ts";
import { McpSessions } from "../mcp-sessions.ts";
import { HttpError } from "../problems.ts";
import { callerOf } from "./authentication.ts";

/** Open MCP sessions at most, and how long a quiet one stays open. */
// Per key (mcp-sessions.ts).
const MCP_SESSIONS = { maxSessions: 1000, idleMs: 30 * 60_000 };

export interface McpEndpointOptions {
  app: AppGate;
}

export async function mcpPlugin(server: FastifyInstance, { app }: McpEndpointOptions): Promise<void> {
  const { drain } = server;
  const sessions = new McpSessions(MCP_SESSIONS);
  server.addHook("preClose", async () => sessions.endStreams());
  server.addHook("onClose", async () => sessions.closeAll());
  server.route({
    method: ["GET", "POST", "DELETE"],
    url: "/mcp",
    config: { access: "agent" },
    handler: async (request, reply) => {
      // A JSON-RPC message is the body of every POST; GET and DELETE take none.
      if (request.method === "POST" && request.body === undefined)
        throw new HttpError(
          400,
          "empty_body",
          "the request has no JSON body; an MCP POST carries a JSON-RPC message",
        );
      const caller = callerOf(request);
      const sessionId = request.headers["mcp-session-id"];
      let transport: StreamableHTTPServerTransport;
      let started: McpServer | undefined;
      if (typeof sessionId === "string") {
        const open = sessions.get(sessionId, caller.id);
        if (!open)
          return reply.status(404).send({
            jsonrpc: "2.0",
            error: { code: -32001, message: "unknown or expired MCP session; initialize a new one" },
            id: null,
          });
        transport = open.transport;
      } else {
        started = createMcpServer(app.ready(), {
          allowSynthesis: caller.role === "maintainer",
          role: caller.role,
          callerId: caller.id,
        });
        transport = sessions.start(caller.id, started);
        await started.connect(transport);
      }
      reply.hijack();
      drain.hijacked(reply.raw);
      try {
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        // The reply is hijacked, so Fastify's error handler cannot answer for the transport.
        request.log.error({ err: error }, "MCP request failed");
        if (!reply.raw.headersSent)
          reply.raw
            .writeHead(500, { "content-type": "application/json" })
            .end(JSON.stringify({ error: { code: "internal", message: "the MCP request failed" } }));
      } finally {
        if (started) sessions.discardUnstarted(transport, started);
      }
    },
  });
}
