// The API's answers as the console reads them: inferred from the service's own zod schemas (type-only
// imports, erased from the bundle), so the console and the API cannot disagree on a field.
import type { z } from "zod";
import type {
  breakersResponseSchema,
  executionsResponseSchema,
  feedbackResponseSchema,
  feedbackVotesResponseSchema,
  RouteAndExecuteResponse,
  routeEvaluationResponseSchema,
  routeResponseSchema,
  Step,
  toolListResponseSchema,
  toolResponseSchema,
  whoamiResponseSchema,
} from "../../src/app/index.ts";

export type Whoami = z.infer<typeof whoamiResponseSchema>;
export type RouteAnswer = z.infer<typeof routeResponseSchema>;
export type Candidate = RouteAnswer["tools"][number];
export type ToolList = z.infer<typeof toolListResponseSchema>;
export type ToolSummary = ToolList["tools"][number];
export type StoredTool = z.output<typeof toolResponseSchema>;
export type Breakers = z.infer<typeof breakersResponseSchema>;
export type Breaker = Breakers["breakers"][number];
export type Executions = z.infer<typeof executionsResponseSchema>;
export type Execution = Executions["executions"][number];
export type FeedbackAnswer = z.infer<typeof feedbackResponseSchema>;
export type Votes = z.infer<typeof feedbackVotesResponseSchema>;
export type Evaluation = z.infer<typeof routeEvaluationResponseSchema>;
export type { RouteAndExecuteResponse, Step };
