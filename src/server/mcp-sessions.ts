// MCP sessions over Streamable HTTP: one MCP server and transport per session, so a session's tool calls
// share a context (the app keys it by the caller and the session id). A session belongs to the key that
// opened it: another key naming its id is told it does not exist. Sessions are bounded in number per key and end
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
  readonly #options: McpSessionOptions;
  /**
   * One LRU per key: with one for all, a key opening maxSessions sessions ended every other key's (the
   * least recently used went first, whoever held it). Keys are the operator's, so the total stays bounded.
   */
  readonly #byCaller = new Map<string, LRUCache<string, OpenSession>>();

  constructor(options: McpSessionOptions) {
    this.#options = options;
  }

  #of(callerId: string): LRUCache<string, OpenSession> {
    let open = this.#byCaller.get(callerId);
    if (!open) {
      open = new LRUCache<string, OpenSession>({
        max: this.#options.maxSessions,
        ttl: this.#options.idleMs,
        updateAgeOnGet: true,
        ttlAutopurge: true,
        dispose: (session) => end(session),
      });
      this.#byCaller.set(callerId, open);
    }
    return open;
  }

  /** The caller's open session with this id. */
  get(id: string, callerId: string): OpenSession | undefined {
    return this.#byCaller.get(callerId)?.get(id);
  }

  /** A transport for a request without a session id; it is kept once an initialize gives it one. */
  start(callerId: string, server: McpServer): StreamableHTTPServerTransport {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#of(callerId).set(id, { transport, server, callerId });
      },
      onsessionclosed: (id) => {
        this.#byCaller.get(callerId)?.delete(id);
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
    for (const open of this.#byCaller.values())
      for (const session of open.values()) session.transport.closeStandaloneSSEStream();
  }

  closeAll(): void {
    for (const open of this.#byCaller.values()) open.clear();
  }
}

function end(session: OpenSession): void {
  void session.transport.close().catch(() => {});
  void session.server.close().catch(() => {});
}
