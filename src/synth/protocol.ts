// The messages between the parent and a sandbox host, all plain data. What a host sends is validated
// here (zod) before anything acts on it: a host runs hostile code, so a malformed message means the host
// can no longer be trusted and is treated as crashed. What the parent sends is typed only; the host's
// side (src/synth/host/) imports these types and nothing else from outside its folder.
import { z } from "zod";

/** What a host needs to prepare a tool: never the capabilities' grants, only which ones exist. */
export interface ToolSpec {
  /** The parent's short id for (name, capabilities, code): the host's cache key. */
  id: number;
  name: string;
  code: string;
  /** Names of the granted capabilities ("fetch", "html"), for the prelude to expose on ctx. */
  granted: string[];
}

export type ParentMessage =
  /**
   * Prepares the tool and runs it once with `args` (JSON text); without `args`, only prepares it. With
   * `context` (JSON text) the tool gets ctx.context and ctx.setContext.
   */
  | { t: "run"; call: number; tool: ToolSpec; args?: string; context?: string; timeoutMs: number }
  /** Ends a run now: its isolate is disposed. */
  | { t: "stop"; call: number; reason: "timeout" | "cancelled" }
  /** The answer to a capability request. */
  | { t: "reply"; call: number; req: number; ok: boolean; payload: string };

export interface HostConfig {
  memoryLimitMb: number;
  maxOutputChars: number;
  maxWarmTools: number;
  hostMemoryLimitMb: number;
  maxMessageBytes: number;
}

/** The failures a host reports itself; a host that dies is reported by the parent ("crashed"). */
export const hostFailureKinds = ["compile", "runtime", "memory", "timeout", "cancelled"] as const;

export function hostMessageSchema(maxChars: number) {
  const text = z.string().max(maxChars);
  const id = z.number().int().nonnegative();
  return z.discriminatedUnion("t", [
    z.strictObject({ t: z.literal("ready") }),
    /** The host is ending itself (memory ceiling, lost isolate); its calls are lost. */
    z.strictObject({ t: z.literal("dying"), reason: z.string().max(500) }),
    /** The run ended; `json` is the prelude's reply (see `replySchema`). */
    z.strictObject({ t: z.literal("result"), call: id, json: text }),
    /** The tool is prepared (a run without args). */
    z.strictObject({ t: z.literal("prepared"), call: id }),
    z.strictObject({
      t: z.literal("failed"),
      call: id,
      kind: z.enum(hostFailureKinds),
      message: text,
      line: z.number().int().optional(),
      column: z.number().int().optional(),
    }),
    /** A capability request from the running tool, to be checked and performed by the parent. */
    z.strictObject({
      t: z.literal("request"),
      call: id,
      req: id,
      capability: z.string().max(64),
      json: text,
    }),
  ]);
}

export type HostMessage = z.infer<ReturnType<typeof hostMessageSchema>>;

const consoleLineSchema = z.strictObject({
  level: z.enum(["log", "info", "warn", "error"]),
  message: z.string(),
});

/** The JSON text the prelude's `invoke` returns, once parsed. */
export const replySchema = z.discriminatedUnion("ok", [
  z.strictObject({
    ok: z.literal(true),
    value: z.unknown(),
    console: z.array(consoleLineSchema),
    /** What the tool passed to ctx.setContext, merged: only for a run given a context. */
    context: z.record(z.string(), z.unknown()).optional(),
  }),
  z.strictObject({
    ok: z.literal(false),
    console: z.array(consoleLineSchema),
    error: z.strictObject({
      stage: z.enum(["runtime", "output"]),
      name: z.string(),
      message: z.string(),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
    }),
  }),
]);

export type Reply = z.infer<typeof replySchema>;
