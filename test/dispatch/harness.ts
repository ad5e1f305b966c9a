// Fault-injection harness: stand-in providers built for these tests (not real bindings) that fail a chosen
// fraction of calls with chosen error kinds, hang, or return malformed output, driven by a seeded random
// source so every run sees the same sequence.
import type { Tool } from "../../src/catalog/index.ts";
import type { InvokeOptions, Provider } from "../../src/dispatch/index.ts";

export type FaultKind =
  | "ECONNRESET"
  | "ECONNREFUSED"
  | "ETIMEDOUT"
  | "UND_ERR_SOCKET"
  | "429"
  | "503"
  | "529"
  | "overloaded"
  | "401"
  | "400"
  | "404"
  | "unknown"
  | "hang"
  | "malformed";

/** Park-Miller minimal standard generator: deterministic, good enough to pick faults. */
export function seeded(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 16807) % 2147483647;
    return (state - 1) / 2147483646;
  };
}

export function faultError(kind: FaultKind): Error {
  switch (kind) {
    case "ECONNRESET":
    case "ECONNREFUSED":
    case "ETIMEDOUT":
      return Object.assign(new Error(`connect ${kind} 127.0.0.1:9`), { code: kind });
    case "UND_ERR_SOCKET":
      // undici's shape: fetch rejects with TypeError("fetch failed") whose cause carries the code.
      return new TypeError("fetch failed", {
        cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      });
    case "429":
      return Object.assign(new Error("Too Many Requests"), { status: 429, headers: {} });
    case "503":
      return Object.assign(new Error("Service Unavailable"), { status: 503 });
    case "529":
      return Object.assign(new Error("Overloaded"), { status: 529 });
    case "overloaded":
      return new Error("the model is overloaded, try again");
    case "401":
      return Object.assign(new Error("Unauthorized: token expired"), { status: 401 });
    case "400":
      return Object.assign(new Error("Bad Request: missing field"), { status: 400 });
    case "404":
      return Object.assign(new Error("Not Found"), { status: 404 });
    case "unknown":
      return new Error("something odd happened");
    case "hang":
    case "malformed":
      throw new Error(`${kind} is not an error kind`);
  }
}

export interface FaultyOptions {
  id?: string;
  /** Fraction of calls that fail, in [0, 1]. */
  failRate?: number;
  /** Kinds of failure, picked uniformly. */
  kinds?: FaultKind[];
  random?: () => number;
  /** The successful output; receives the arguments. */
  answer?: (args: Record<string, unknown>) => unknown;
  /** Milliseconds before answering (real timers). */
  latencyMs?: number;
}

export interface FaultyProvider extends Provider {
  invocations: number;
  inFlight: number;
  maxInFlight: number;
  signals: AbortSignal[];
  refreshes: number;
  /** Changes behaviour mid-test (e.g. recovery). */
  failRate: number;
}

export function faultyProvider(options: FaultyOptions = {}): FaultyProvider {
  const random = options.random ?? seeded(42);
  const kinds = options.kinds ?? ["ECONNRESET"];
  const answer = options.answer ?? ((args) => ({ ok: true, echo: args }));
  const provider: FaultyProvider = {
    id: options.id ?? "primary",
    invocations: 0,
    inFlight: 0,
    maxInFlight: 0,
    signals: [],
    refreshes: 0,
    failRate: options.failRate ?? 0,
    async refreshCredentials() {
      provider.refreshes++;
    },
    async invoke(args: Record<string, unknown>, { signal }: InvokeOptions) {
      provider.invocations++;
      provider.signals.push(signal);
      provider.inFlight++;
      provider.maxInFlight = Math.max(provider.maxInFlight, provider.inFlight);
      try {
        if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
        if (random() < provider.failRate) {
          const kind = kinds[Math.floor(random() * kinds.length)] as FaultKind;
          if (kind === "hang") return await new Promise(() => {}); // ignores its signal on purpose
          if (kind === "malformed") return { unexpected: "shape" };
          throw faultError(kind);
        }
        return answer(args);
      } finally {
        provider.inFlight--;
      }
    },
  };
  return provider;
}

export function tool(overrides: Partial<Tool> & { name: string }): Tool {
  return {
    description: `test tool ${overrides.name}`,
    inputSchema: { type: "object" },
    ...overrides,
  };
}

export const readTool = (name: string, extra: Partial<Tool> = {}): Tool =>
  tool({ name, annotations: { readOnlyHint: true }, ...extra });

export const writeTool = (name: string, extra: Partial<Tool> = {}): Tool =>
  tool({ name, annotations: { readOnlyHint: false, destructiveHint: true }, ...extra });

export function catalog(...tools: Tool[]) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { get: (name: string) => byName.get(name) };
}

/** A sleep that records delays and returns at once, so retry schedules are asserted without waiting. */
export function recordingSleep() {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}
