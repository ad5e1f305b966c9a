// The provider behind an `mcp` binding: one SDK client per server and configuration (stdio command+args with
// their environment, or Streamable HTTP url with its headers, and who wrote the tool), shared by every tool
// that configures the server alike and kept open between calls; a server that goes away is reconnected on
// the next call. `isError` results become errors. closeMcpClients() ends them all.
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpBinding, Tool } from "../catalog/index.ts";
import { type Provider, withContextModifier } from "../dispatch/index.ts";
import { type EgressPolicy, publicOnly } from "../egress/index.ts";
import { allowedChanges, readable } from "./declared-context.ts";
import { BindingError, fillEnvTemplate, type Grants, OPERATOR_GRANTS } from "./secrets.ts";

/** A result the MCP server marked `isError`: the tool ran and refused; `content` is what it said. */
export class McpToolError extends Error {
  readonly content: unknown[];
  constructor(message: string, content: unknown[]) {
    super(message);
    this.name = "McpToolError";
    this.content = content;
  }
}

/** Where the session context travels in a request's and a result's `_meta`. */
export const CONTEXT_META = "switchboard/context";

const pool = new Map<string, Promise<Client>>();

async function importSdk() {
  const [client, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return { ...client, ...stdio, ...http, ...types };
}
// The SDK's client is loaded by the first mcp call: most processes (a CLI command, a catalog without mcp
// tools) never make one, and loading it costs a noticeable part of a start.
let sdk: Awaited<ReturnType<typeof importSdk>> | undefined;
let loading: Promise<NonNullable<typeof sdk>> | undefined;
const loadSdk = () => {
  loading ??= importSdk().then((loaded) => {
    sdk = loaded;
    return loaded;
  });
  return loading;
};

function serverKey(binding: McpBinding): string {
  if (binding.url !== undefined) return binding.url;
  if (binding.command !== undefined) return [binding.command, ...(binding.args ?? [])].join(" ");
  throw new Error("an mcp binding needs a 'command' or a 'url'");
}

function filled(
  values: Record<string, string> | undefined,
  tool: string,
  grants: Grants,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).map(([k, v]) => [k, fillEnvTemplate(v, tool, "mcp", grants)]),
  );
}

/**
 * The pool key: the server with everything its client was configured with, and by whom. A client carries
 * the headers (credentials) or the server process the environment its first tool gave it, so a tool that
 * names the same server with other values, or is trusted less (written through the API, not the operator's
 * catalog), must never get it. Hashed so the pool holds no secret in clear.
 */
function clientKey(server: string, grants: Grants, configured: Record<string, string>): string {
  const trust = grants === OPERATOR_GRANTS ? "operator" : "api";
  const entries = Object.entries(configured).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([trust, server, entries]))
    .digest("hex");
}

export interface McpDeps {
  egress?: EgressPolicy;
  grants?: Grants;
}

function connect(server: string, binding: McpBinding, tool: string, deps: McpDeps): Promise<Client> {
  const grants = deps.grants ?? OPERATOR_GRANTS;
  // Checked before the pool: a server an operator's tool started is not lent to a tool that may not start it.
  if (
    binding.command !== undefined &&
    grants.commands !== "any" &&
    !grants.commands.includes(binding.command)
  )
    throw new BindingError(
      "ERR_COMMAND_NOT_ALLOWED",
      `tool ${tool}: "${binding.command}" is not an MCP server command the operator allowed (SWITCHBOARD_MCP_COMMANDS)`,
    );
  const configured = filled(binding.url !== undefined ? binding.headers : binding.env, tool, grants);
  const key = clientKey(server, grants, configured);
  const pooled = pool.get(key);
  if (pooled) return pooled;
  const connecting = (async () => {
    const { Client, getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport } =
      await loadSdk();
    const client = new Client({ name: "switchboard", version: "0.1.0" });
    // The SDK hands a stdio server only a safe default environment; secrets it needs are declared in `env`.
    const transport =
      binding.url !== undefined
        ? new StreamableHTTPClientTransport(new URL(binding.url), {
            requestInit: { headers: configured },
            fetch: (deps.egress ?? publicOnly()).fetch,
          })
        : new StdioClientTransport({
            command: binding.command as string,
            args: binding.args ?? [],
            env: { ...getDefaultEnvironment(), ...configured },
            stderr: "inherit",
          });
    client.onclose = () => {
      if (pool.get(key) === connecting) pool.delete(key);
    };
    await client.connect(transport);
    return client;
  })();
  pool.set(key, connecting);
  connecting.catch(() => {
    if (pool.get(key) === connecting) pool.delete(key);
  });
  return connecting;
}

/**
 * The transport's failures, said structurally for the dispatcher's classification (which reads no
 * message): the server's HTTP status, or a closed connection or a request timeout as the socket codes.
 * Anything else (an isError result, a JSON-RPC error the server answered) keeps its own shape.
 */
function transportFault(error: unknown): unknown {
  // Without the SDK loaded, no call reached a transport: the error is not one of its faults.
  if (!sdk) return error;
  const { ErrorCode, McpError, StreamableHTTPError } = sdk;
  if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code >= 400)
    return Object.assign(new Error(error.message, { cause: error }), { status: error.code });
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return Object.assign(new Error(error.message, { cause: error }), { code: "ECONNRESET" });
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return Object.assign(new Error(error.message, { cause: error }), { code: "ETIMEDOUT" });
  return error;
}

function textOf(content: unknown[]): string | undefined {
  const texts = content.map((item) =>
    (item as { type?: string; text?: string }).type === "text" ? (item as { text: string }).text : undefined,
  );
  return texts.every((t) => t !== undefined) ? texts.join("\n") : undefined;
}

export function mcpProvider(binding: McpBinding, tool: Tool, deps: McpDeps = {}): Provider {
  const key = serverKey(binding);
  const name = binding.tool ?? tool.name;
  return {
    id: `mcp:${key}#${name}`,
    async invoke(args, { signal, context }) {
      const reads = readable(context, binding.context?.read);
      const request = binding.context?.read
        ? { name, arguments: args, _meta: { [CONTEXT_META]: reads } }
        : { name, arguments: args };
      let result: Awaited<ReturnType<Client["callTool"]>>;
      try {
        const client = await connect(key, binding, tool.name, deps);
        result = await client.callTool(request, undefined, { signal });
      } catch (error) {
        throw transportFault(error);
      }
      const content = (result.content ?? []) as unknown[];
      if (result.isError) {
        throw new McpToolError(
          `tool ${name} on ${key}: ${textOf(content) ?? "the server reported an error"}`,
          content,
        );
      }
      // Structured content when the tool declares it; otherwise its text, or the content items as they are.
      const output = result.structuredContent ?? textOf(content) ?? content;
      const changes = allowedChanges(result._meta?.[CONTEXT_META], binding.context?.write);
      return changes === undefined ? output : withContextModifier(output, changes);
    },
  };
}

/** Closes every pooled MCP client (stopping stdio servers); the next call connects again. */
export async function closeMcpClients(): Promise<void> {
  const clients = [...pool.values()];
  pool.clear();
  await Promise.all(clients.map(async (connecting) => (await connecting.catch(() => undefined))?.close()));
}
