// Running tool calls for a caller: names resolved as that caller sees them (an alias or another key's
// pending tool fails alone as unknown_tool), the session's context loaded and changed by the batch, and
// every write call run at most once across replicas.
import { randomUUID } from "node:crypto";
import { bindingArgumentIssues } from "../bindings/index.ts";
import { type Tool, type ToolRegistry, unknownToolMessage, validateAgainstSchema } from "../catalog/index.ts";
import type { Dispatcher } from "../dispatch/index.ts";
import { memorySessionStore, SessionContexts, type SessionStore } from "../session/index.ts";
import { fromStrictArguments } from "./formats.ts";
import type { ToolCall } from "./requests.ts";
import { type ScaleOut, storeProblem } from "./scale-out.ts";
import type { Viewer } from "./tool-access.ts";
import type { ToolDirectory } from "./tool-directory.ts";
import type { CallResult, ExecuteOptions, RouteAndExecuteResponse, Step } from "./types.ts";

/** Bounds of session contexts: a context is a few settings (a location, a token), not a document. */
const SESSION_BOUNDS = { maxContextBytes: 16_384, ttlMs: 30 * 60_000 };
// Per API key (store.ts): one key's sessions never evict another's.
const SESSION_STORE = { maxSessions: 2_000, maxTotalBytes: 4_000_000 };

/** Who a route-and-execute call runs for: its session, its key (owner) and what that key may see. */
export interface RunFor {
  session: string | undefined;
  owner: string | undefined;
  viewer: Viewer | undefined;
}

export interface ExecutionDeps {
  registry: ToolRegistry;
  directory: ToolDirectory;
  dispatcher: Dispatcher;
  scaleOut: Pick<ScaleOut, "executeOnce" | "sessions">;
}

/** A call that may change something: run at most once across replicas when they share Redis. */
const isWrite = (tool: Tool | undefined) =>
  (tool?.policy?.kind ?? (tool?.annotations?.readOnlyHint ? "read" : "write")) !== "read";

export class Execution {
  readonly #deps: ExecutionDeps;
  readonly #sessions: SessionContexts;

  constructor(deps: ExecutionDeps) {
    this.#deps = deps;
    // Session contexts live where every replica that may answer the session finds them: in Redis when
    // SWITCHBOARD_REDIS_URL is set, otherwise in this process.
    const store: SessionStore = deps.scaleOut.sessions ?? memorySessionStore(SESSION_STORE);
    this.#sessions = new SessionContexts(store, SESSION_BOUNDS);
  }

  async execute(calls: ToolCall[], options: ExecuteOptions = {}): Promise<CallResult[]> {
    const { registry, directory } = this.#deps;
    // A call to a tool this caller cannot use fails alone (unknown_tool, with the nearest names it can
    // use); the rest of the batch runs. It never reaches the dispatcher, which knows every key's tools.
    const resolved = calls.map((call) => {
      const name = directory.resolveName(call.name, options.viewer);
      if (!name) return { call, known: false };
      const schema = registry.get(name)?.inputSchema;
      const args = schema
        ? (fromStrictArguments(schema, call.arguments) as Record<string, unknown>)
        : call.arguments;
      return { call: { ...call, name, arguments: args }, known: true };
    });
    const runnable = resolved.filter((r) => r.known).map((r) => r.call);
    const ran = runnable.length > 0 ? await this.#executeKnown(runnable, options) : [];
    let next = 0;
    return resolved.map((r) =>
      r.known ? (ran[next++] as CallResult) : this.#unknownToolResult(r.call, options.viewer),
    );
  }

  /**
   * One call of route-and-execute: its arguments checked against the schema and the binding (a `validate`
   * step), then run (an `execute` step) under a fresh id, prefixed by the owner's key in the dispatcher.
   */
  async runValidated(
    tool: Tool,
    args: Record<string, unknown>,
    steps: Step[],
    { session, owner, viewer }: RunFor,
  ) {
    const issues = [...validateAgainstSchema(tool.inputSchema, args), ...bindingArgumentIssues(tool, args)];
    if (issues.length > 0) {
      steps.push({ step: "validate", tool: tool.name, ok: false, issues, inputSchema: tool.inputSchema });
      return {
        status: "invalid_arguments" as const,
        tool: tool.name,
        steps,
      } satisfies RouteAndExecuteResponse;
    }
    steps.push({ step: "validate", tool: tool.name, ok: true });
    const id = randomUUID();
    const [scoped] = await this.execute(
      [{ id: owner === undefined ? id : `${owner}/${id}`, name: tool.name, arguments: args }],
      { session, ...(viewer ? { viewer } : {}), ...(owner === undefined ? {} : { caller: owner }) },
    );
    if (!scoped) throw new Error("the dispatcher returned no result");
    const result = { ...scoped, id };
    steps.push({ step: "execute", tool: tool.name, arguments: args, result });
    return {
      status: result.status === "completed" ? ("completed" as const) : ("failed" as const),
      tool: tool.name,
      result,
      steps,
    };
  }

  #unknownToolResult(call: ToolCall, viewer: Viewer | undefined): CallResult {
    return {
      id: call.id,
      name: call.name,
      status: "failed",
      error: {
        class: "unknown_tool",
        message: unknownToolMessage(call.name, this.#deps.directory.names(viewer)),
      },
      provenance: { attempts: 0, stale: false, breakers: {} },
      timing: { queuedMs: 0, runMs: 0, totalMs: 0 },
    };
  }

  async #executeKnown(resolved: ToolCall[], options: ExecuteOptions): Promise<CallResult[]> {
    const { registry, dispatcher, scaleOut } = this.#deps;
    const { signal, session } = options;
    // The dispatcher's key: the server's caller id, else the viewer's (a program using the library).
    const caller = options.caller ?? options.viewer?.id;
    // Without a session a batch gets an empty context of its own: its changes reach no one.
    const run = (context: Record<string, unknown>) =>
      scaleOut.executeOnce(
        resolved,
        (call) => isWrite(registry.get(call.name)),
        (mine) =>
          dispatcher.execute(mine, caller === undefined ? { signal, context } : { signal, context, caller }),
        signal,
      );
    if (session === undefined) return run({});
    const { value, warning } = await this.#sessions
      .run(session, run)
      .catch((error) => Promise.reject(storeProblem(error)));
    if (!warning) return value;
    return value.map((r) => ({
      ...r,
      provenance: { ...r.provenance, warnings: [...(r.provenance.warnings ?? []), warning] },
    }));
  }
}
