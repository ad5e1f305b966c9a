// The Switchboard object's public surface: what the CLI, the HTTP API and the MCP server call.
import type { InspectReport, InspectRequest } from "../browser/index.ts";
import type { SchemaIssue, Tool } from "../catalog/index.ts";
import type { CallResult, ExecutionRecord } from "../dispatch/index.ts";
import type { Doubt, Evidence, FilledValue, MissingField, OpaqueKind } from "../intent/index.ts";
import type { DenseState } from "../router/index.ts";
import type { SynthesisIssue, SynthesisStage, TestRun } from "../synth/index.ts";
import type { ContextSaved } from "./catalog-tokens.ts";
import type { ExecutionFilter } from "./execution-history.ts";
import type { FeedbackOutcome, PendingVote, Voter } from "./feedback-gate.ts";
import type { Metrics } from "./metrics.ts";
import type {
  DefinitionFormat,
  FeedbackPair,
  RouteAndExecuteRequest,
  RouteRequest,
  SynthesizeRequest,
  ToolCall,
} from "./requests.ts";
import type { ToolListing } from "./responses.ts";
import type { RouteEvaluation, RouteEvaluationRequest } from "./route-evaluation.ts";
import type { StoresHealth } from "./scale-out.ts";
import type { Viewer } from "./tool-access.ts";

export type { Viewer };

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
  | {
      step: "route";
      matched: boolean;
      threshold: number;
      /** The text routed when opaque values (tokens, blobs, long numbers) were taken out of the query. */
      routedText?: string;
      opaque?: { kind: OpaqueKind; start: number; end: number }[];
      /** `adjusted` is the score after the argument evidence in `why`. */
      candidates: { name: string; score: number; adjusted?: number; why?: string[] }[];
    }
  | {
      step: "arguments";
      tool: string;
      filled: FilledValue[];
      llmProblem?: string;
      /** How sure the filler is of the values it read, 0 to 1 (1 when it read none). */
      confidence?: number;
      /** The bar that confidence must reach for the call to run (a bare tool has its own). */
      bar?: number;
      /** What makes the call doubtful beyond its values' evidence (weighed for bare tools). */
      doubts?: Doubt[];
      /** Call-level signals that lowered the confidence (rows of the confidence table). */
      signals?: Evidence[];
      /**
       * Every value the call needs is at hand and fits the schema: whether it runs is left to the
       * confidence bar alone (what `scripts/fit-fill-confidence.ts` labels).
       */
      ready?: boolean;
    }
  | { step: "split"; intents: string[] }
  | { step: "validate"; tool: string; ok: boolean; issues?: SchemaIssue[]; inputSchema?: unknown }
  | { step: "execute"; tool: string; arguments: Record<string, unknown>; result: CallResult }
  | { step: "synthesize"; ok: true; tool: string; rounds: number }
  | { step: "synthesize"; ok: false; stage: SynthesisStage; errors: SynthesisIssue[] }
  /**
   * No tool was written: the operator turned synthesis off for agent keys, the key's synthesis budget is
   * spent, or a tool matches at the calibrated threshold (a caller's higher one does not force synthesis).
   */
  | { step: "synthesize"; ok: false; skipped: "off" | "limit" | "matched" | "indexing"; detail: string }
  /** pending: written for an agent key, routed for it alone until a maintainer promotes it. */
  | { step: "register"; tool: string; version: number; status: "pending" | "published" }
  | {
      step: "elicit";
      tool: string;
      fields: string[];
      action: InputAnswer["action"];
      /** not_asked/unanswered: why. */
      detail?: string;
      /** accept: why the answer was refused, if it was. */
      problems?: string[];
    };

/** What route-and-execute puts to the user when a value is missing (over MCP: an elicitation). */
export interface InputRequest {
  tool: string;
  missing: MissingField[];
  question: string;
  /** Asked again: what was wrong with the previous answer. */
  refused?: string[];
}

/**
 * The user's answer. decline/cancel: they chose not to give it; unanswered: the client failed or did not
 * answer in time; not_asked: the missing values cannot be asked for this way (say, an array).
 */
export type InputAnswer =
  | { action: "accept"; content: Record<string, unknown> }
  | { action: "decline" | "cancel" }
  | { action: "unanswered" | "not_asked"; detail: string };

export type AskUser = (request: InputRequest) => Promise<InputAnswer>;

/** A call that ran while answering a request: what was called with what, and its result. */
export interface ExecutedCall {
  tool: string;
  arguments: Record<string, unknown>;
  result: CallResult;
  /** Which of the request's intents ran it (its index in `intents`), when there are several. */
  intent?: number;
}

export interface RouteAndExecuteResponse {
  /**
   * completed/failed: the call ran; invalid_arguments: fix `arguments` per the validate step; no_match:
   * nothing cleared the threshold and no LLM is configured; synthesis_failed: the LLM's tool failed its checks;
   * needs_input: a required value is missing or a named thing could not be placed: answer `question`;
   * partial: several intents, some ran and others did not complete (see `intents`).
   */
  status:
    | "completed"
    | "partial"
    | "failed"
    | "invalid_arguments"
    | "needs_input"
    | "no_match"
    | "synthesis_failed";
  tool?: string;
  result?: CallResult;
  /** needs_input: the fields to supply, each with its schema. */
  missing?: MissingField[];
  question?: string;
  /** needs_input: the values read from the request but not surely (confidence under the bar), with their spans. */
  suggested?: FilledValue[];
  /** needs_input with `suggested`: how sure the filler was of the call, 0 to 1. */
  confidence?: number;
  /**
   * A request with several intents: one answer each, in order (the status is completed when all completed,
   * partial when some ran and others did not complete, else the first that did not complete).
   */
  intents?: RouteAndExecuteResponse[];
  /** Every call that ran for this request, once each, in order; empty when nothing ran. */
  calls?: ExecutedCall[];
  /** The intent this answer is for, with any reference to an earlier result replaced by it. */
  intent?: string;
  steps: Step[];
}

/** The synthesizer's outcome: the registered tool and its test runs, or the failing stage and its problems. */
export type SynthesisResponse =
  | { ok: true; tool: Tool; tests: TestRun[] }
  | { ok: false; stage: SynthesisStage; kind: string; errors: SynthesisIssue[] };

/** What the index did on opening: loaded as persisted, built, updated with changed tools, or rebuilt. */
/** What embeds queries and tool texts; `fallback` says why a slower runtime stands in for the native one. */
export interface EmbedderHealth {
  id: string;
  runtime: string;
  fallback?: string;
}

export interface ReadyReport {
  tools: number;
  embedder: EmbedderHealth;
  index: {
    action: "loaded" | "built" | "updated" | "rebuilt";
    reason?: string;
    /** Texts embedded while opening (0 when loaded as is). */
    embedded: number;
    entries: number;
    /** Started from the shipped index of the bundled catalog. */
    seeded: boolean;
    /** "filling": ready on BM25 while the dense index fills in the background (OpenOptions.serveWhileIndexing). */
    dense: DenseState["state"];
  };
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  /** Who calls: another agent key's pending tools are unknown names to it. Absent: the local operator. */
  viewer?: Viewer;
  /**
   * The session whose context the calls read and change, already scoped to the caller by the layer that
   * knows who calls. Without one, a batch gets an empty context of its own and its changes are dropped.
   */
  session?: string;
  /**
   * Who calls (the server's caller id, opaque here): the dispatcher keeps its per-key limit, fair share
   * of the slot queues and retry budget under it.
   */
  caller?: string;
}

export interface RouteAndExecuteOptions extends Pick<ExecuteOptions, "session" | "viewer"> {
  /** Asks the user for missing values instead of answering needs_input at once (MCP elicitation). */
  ask?: AskUser;
  /** Who calls (a key's id): prefixes the dispatcher's call ids, so executions are listed per key. */
  owner?: string;
}

export interface Switchboard {
  /** Resolves once the index is open (opening it if it was deferred): routing answers without waiting. */
  ready(): Promise<ReadyReport>;
  /** `viewer` is offered the published tools and its own pending ones. */
  route(request: RouteRequest, viewer?: Viewer): Promise<RouteResponse>;
  execute(calls: ToolCall[], options?: ExecuteOptions): Promise<CallResult[]>;
  routeAndExecute(
    request: RouteAndExecuteRequest,
    options?: RouteAndExecuteOptions,
  ): Promise<RouteAndExecuteResponse>;
  /** A maintainer's (or the operator's) synthesis: the tool is published at once. */
  synthesize(request: SynthesizeRequest, viewer?: Viewer): Promise<SynthesisResponse>;
  /** The tools `viewer` may use (tool-access.ts); all of them without a viewer. */
  listTools(viewer?: Viewer): Tool[];
  getTool(name: string, viewer?: Viewer): Tool | undefined;
  /** The tools `viewer` may use, each with where it came from (ToolListing in responses.ts). */
  toolListing(viewer?: Viewer): ToolListing[];
  /** Publishes a pending synthesized tool: not_found for an unknown name, conflict if already published. */
  promoteTool(name: string, by?: Viewer): Promise<ToolListing>;
  putTool(tool: Tool): Promise<Tool>;
  deleteTool(name: string, by?: Viewer): Promise<void>;
  /** Learned at once from a maintainer, as one vote from an agent key (see feedback-gate.ts). */
  feedback(pairs: FeedbackPair[], voter: Voter): Promise<FeedbackOutcome>;
  /** Agent keys' feedback votes still short of the quorum, oldest first. */
  feedbackVotes(): Promise<PendingVote[]>;
  /** Routes labelled queries (the catalog's own set, or the request's) and measures how well it went. */
  evaluateRouting(request: RouteEvaluationRequest): Promise<RouteEvaluation>;
  /** Loads a page statically and in the browser and reports whether it is static or dynamic. */
  inspect(request: InspectRequest): Promise<InspectReport>;
  /** Calls running now and each key's recent finished ones (execution-history.ts), newest first. */
  executions(filter?: ExecutionFilter): ExecutionRecord[];
  breakers(): unknown[];
  /** The shared stores' state (off when not configured), for /readyz. */
  stores(): StoresHealth;
  /** The embedder in use, once the index is open (undefined before), for /readyz. */
  embedder(): EmbedderHealth | undefined;
  /** The dense index's state once the index is open (undefined before), for /readyz. */
  denseIndex(): DenseState | undefined;
  readonly metrics: Metrics;
  close(): Promise<void>;
}

/**
 * conflict: the change does not apply to the thing's current state (promoting a published tool).
 * store_unavailable: the shared database is away; the catalog cannot change until it returns.
 * session_unavailable: the shared session store (Redis) is away; a session's calls cannot run until it returns.
 */
export type AppErrorCode =
  | "not_found"
  | "conflict"
  | "invalid"
  | "unavailable"
  | "store_unavailable"
  | "session_unavailable";

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
