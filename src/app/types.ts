// The Switchboard object's public surface: what the CLI, the HTTP API and the MCP server call.
import type { InspectReport, InspectRequest } from "../browser/index.ts";
import type { SchemaIssue, Tool } from "../catalog/index.ts";
import type { CallResult } from "../dispatch/index.ts";
import type { SynthesisIssue, SynthesisStage, TestRun } from "../synth/index.ts";
import type { ContextSaved } from "./context.ts";
import type { FeedbackOutcome, Voter } from "./feedback-gate.ts";
import type { Metrics } from "./metrics.ts";
import type {
  DefinitionFormat,
  FeedbackPair,
  RouteAndExecuteRequest,
  RouteRequest,
  SynthesizeRequest,
  ToolCall,
} from "./requests.ts";
import type { StoresHealth } from "./scale-out.ts";

export interface RoutedTool {
  name: string;
  score: number;
  why: unknown;
  definition: Record<string, unknown>;
}

export interface RouteResponse {
  query: string;
  matched: boolean;
  threshold: number;
  notices: string[];
  format: DefinitionFormat;
  tools: RoutedTool[];
  context: ContextSaved;
}

export type { CallResult };

export type Step =
  | { step: "route"; matched: boolean; threshold: number; candidates: { name: string; score: number }[] }
  | { step: "validate"; tool: string; ok: boolean; issues?: SchemaIssue[]; inputSchema?: unknown }
  | { step: "execute"; result: CallResult }
  | { step: "synthesize"; ok: true; tool: string; rounds: number }
  | { step: "synthesize"; ok: false; stage: SynthesisStage; errors: SynthesisIssue[] }
  | { step: "register"; tool: string; version: number };

export interface RouteAndExecuteResponse {
  /**
   * completed/failed: the call ran; invalid_arguments: fix `arguments` per the validate step; no_match:
   * nothing cleared the threshold and no LLM is configured; synthesis_failed: the LLM's tool failed its checks.
   */
  status: "completed" | "failed" | "invalid_arguments" | "no_match" | "synthesis_failed";
  tool?: string;
  result?: CallResult;
  steps: Step[];
}

/** The synthesizer's outcome: the registered tool and its test runs, or the failing stage and its problems. */
export type SynthesisResponse =
  | { ok: true; tool: Tool; tests: TestRun[] }
  | { ok: false; stage: SynthesisStage; kind: string; errors: SynthesisIssue[] };

export interface Switchboard {
  route(request: RouteRequest): Promise<RouteResponse>;
  execute(calls: ToolCall[], options?: { signal?: AbortSignal }): Promise<CallResult[]>;
  routeAndExecute(request: RouteAndExecuteRequest): Promise<RouteAndExecuteResponse>;
  synthesize(request: SynthesizeRequest): Promise<SynthesisResponse>;
  listTools(): Tool[];
  getTool(name: string): Tool | undefined;
  putTool(tool: Tool): Promise<Tool>;
  deleteTool(name: string): Promise<void>;
  /** Learned at once from a maintainer, as one vote from an agent key (see feedback-gate.ts). */
  feedback(pairs: FeedbackPair[], voter: Voter): Promise<FeedbackOutcome>;
  /** Loads a page statically and in the browser and reports whether it is static or dynamic. */
  inspect(request: InspectRequest): Promise<InspectReport>;
  executions(): unknown[];
  breakers(): unknown[];
  /** The shared stores' state (off when not configured), for /readyz. */
  stores(): StoresHealth;
  readonly metrics: Metrics;
  close(): Promise<void>;
}

/** store_unavailable: the shared database is away; the catalog cannot change until it returns. */
export type AppErrorCode = "not_found" | "invalid" | "unavailable" | "store_unavailable";

/** A failure the caller can act on; the servers map `code` to a status (404, 422, 503). */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly issues?: SchemaIssue[];
  constructor(code: AppErrorCode, message: string, issues?: SchemaIssue[]) {
    super(message);
    this.name = "AppError";
    this.code = code;
    if (issues) this.issues = issues;
  }
}
