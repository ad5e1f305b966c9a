// MCP sessions over Streamable HTTP: one MCP server and transport per session, so a session's tool calls
// share a context (the app keys it by the caller and the session id). A session belongs to the key that
// opened it: another key naming its id is told it does not exist. Sessions are bounded in number and end
// after a quiet spell; ending one closes its transport (and any stream a client keeps open on it).
import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { LRUCache } from "lru-cache";

interface OpenSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  callerId: string;
}

export interface McpSessionOptions {
  maxSessions: number;
  idleMs: number;
}

export class McpSessions {
  readonly #open: LRUCache<string, OpenSession>;

  constructor(options: McpSessionOptions) {
    this.#open = new LRUCache<string, OpenSession>({
      max: options.maxSessions,
      ttl: options.idleMs,
      updateAgeOnGet: true,
      ttlAutopurge: true,
      dispose: (session) => end(session),
    });
  }

  /** The caller's open session with this id. */
  get(id: string, callerId: string): OpenSession | undefined {
    const session = this.#open.get(id);
    return session?.callerId === callerId ? session : undefined;
  }

  /** A transport for a request without a session id; it is kept once an initialize gives it one. */
  start(callerId: string, server: McpServer): StreamableHTTPServerTransport {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#open.set(id, { transport, server, callerId });
      },
      onsessionclosed: (id) => {
        this.#open.delete(id);
      },
    });
    return transport;
  }

  /** Ends a transport that never became a session (a request other than initialize). */
  discardUnstarted(transport: StreamableHTTPServerTransport, server: McpServer): void {
    if (transport.sessionId === undefined) end({ transport, server, callerId: "" });
  }

  /** Ends every session's standalone notification stream; the sessions stay. */
  endStreams(): void {
    for (const session of this.#open.values()) session.transport.closeStandaloneSSEStream();
  }

  closeAll(): void {
    this.#open.clear();
  }
}

function end(session: OpenSession): void {
  void session.transport.close().catch(() => {});
  void session.server.close().catch(() => {});
}
