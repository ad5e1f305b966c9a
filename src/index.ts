// The package's public surface (`import { openSwitchboard } from "switchboard"`): open a Switchboard on a
// catalog and data folder, route, execute, synthesize, and the types of what they take and answer.
export {
  AppError,
  type AppErrorCode,
  type CallResult,
  configFrom,
  type DefinitionFormat,
  type FeedbackPair,
  formatDefinition,
  type OpenOptions,
  openSwitchboard,
  type ReadyReport,
  type RouteAndExecuteRequest,
  type RouteAndExecuteResponse,
  type RoutedTool,
  type RouteRequest,
  type RouteResponse,
  type Step,
  type Switchboard,
  type SwitchboardConfig,
  type SwitchboardOptions,
  type SynthesisResponse,
  type SynthesizeRequest,
  type ToolCall,
} from "./app/index.ts";
export type { Tool } from "./catalog/index.ts";
export { BUNDLED_CATALOG, ConfigError, createLogger, type Logger, readEnv, VERSION } from "./config/index.ts";
export { createHttpServer, createMcpServer } from "./server/index.ts";
