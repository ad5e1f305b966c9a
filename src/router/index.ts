export type { Calibration, Fit, TradeOff } from "./calibration.ts";
export { DEFAULT_HNSW, type HnswParams } from "./dense.ts";
export { RouterError } from "./errors.ts";
export { MAX_FEEDBACK_PER_TOOL, MAX_FEEDBACK_TOTAL } from "./feedback.ts";
export { type QueryLine, readQueryLines } from "./labelled.ts";
export { evaluate, type Judged } from "./metrics.ts";
export {
  type DenseState,
  MAX_QUERY_CHARS,
  type OpenReport,
  type RoutedTool,
  type RouteOptions,
  type RouteResult,
  Router,
  type RouterEmbedder,
  type RouterOptions,
} from "./router.ts";
