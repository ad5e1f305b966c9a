export { inspectRequestSchema } from "../browser/index.ts";
// The service's rate limit keeps its counts in the Redis the replicas share.
export { connectRedis, startRedis } from "../hot-state/index.ts";
export { evaluate, type Judged, readQueryLines } from "../router/index.ts";
export type { SynthesisFailure, SynthesisIssue } from "../synth/index.ts";
export {
  type CatalogIndex,
  type IndexOptions,
  indexKey,
  openCatalogIndex,
  openIndex,
  PREBUILT_INDEX,
} from "./catalog-index.ts";
export { type ContextSaved, serializeRouteResponse } from "./catalog-tokens.ts";
export {
  type ConfigOverrides,
  configFrom,
  parseConfig,
  type SwitchboardConfig,
  type SwitchboardOptions,
  switchboardConfigSchema,
} from "./config.ts";
export { EXECUTIONS_PER_KEY, type ExecutionFilter } from "./execution-history.ts";
export type { FeedbackOutcome, PendingVote, Voter } from "./feedback-gate.ts";
export { formatDefinition, providerToolName, strictSchema } from "./formats.ts";
export { callMatches, callsMatch, type MadeCall } from "./function-eval/ast-match.ts";
export {
  type CategoryReport,
  evaluateFunctions,
  type FunctionEvalReport,
  type QuestionOutcome,
} from "./function-eval/run.ts";
export { type BreakerReading, Metrics, providerLabel } from "./metrics.ts";
export {
  type DefinitionFormat,
  definitionFormatSchema,
  executeRequestSchema,
  type FeedbackPair,
  feedbackRequestSchema,
  type RouteAndExecuteRequest,
  type RouteRequest,
  routeAndExecuteRequestSchema,
  routeRequestSchema,
  type SynthesizeRequest,
  synthesizeRequestSchema,
  type ToolCall,
  toolCallSchema,
  toolSchema,
} from "./requests.ts";
export {
  agentToolResponseSchema,
  breakersResponseSchema,
  callResultSchema,
  deletedResponseSchema,
  errorResponseSchema,
  executeResponseSchema,
  executionsQuerySchema,
  executionsResponseSchema,
  feedbackResponseSchema,
  feedbackVotesResponseSchema,
  inspectResponseSchema,
  promoteResponseSchema,
  routeAndExecuteResponseSchema,
  routeResponseSchema,
  synthesisResponseSchema,
  type ToolListing,
  toolListingSchema,
  toolListQuerySchema,
  toolListResponseSchema,
  toolProvenanceSchema,
  toolResponseSchema,
  toolViewResponseSchema,
  whoamiResponseSchema,
} from "./responses.ts";
export { MAX_ANSWER_CHARS } from "./route-and-execute/ask.ts";
export {
  containsExpected,
  judge,
  type LabelledRequest,
  labelledRequestSchema,
  readLabelledRequests,
  summarise,
  type Verdict,
} from "./route-and-execute/evaluate.ts";
export {
  MAX_EVAL_QUERIES,
  type RouteEvaluation,
  type RouteEvaluationRequest,
  routeEvaluationRequestSchema,
  routeEvaluationResponseSchema,
} from "./route-evaluation.ts";
export { checkTool, inspectUrl, type StandaloneOptions } from "./standalone.ts";
export { type OpenOptions, openSwitchboard } from "./switchboard.ts";
export type { Viewer } from "./tool-access.ts";
export {
  AppError,
  type AppErrorCode,
  type AskUser,
  type CallResult,
  type InputAnswer,
  type InputRequest,
  type ReadyReport,
  type RouteAndExecuteOptions,
  type RouteAndExecuteResponse,
  type RoutedTool,
  type RouteResponse,
  type Step,
  type Switchboard,
  type SynthesisResponse,
} from "./types.ts";
