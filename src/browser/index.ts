export { ChromiumMissingError, INSTALL_ADVICE, locateChromium } from "./chromium.ts";
export {
  analyse,
  type Candidate,
  type InspectReport,
  type InspectRequest,
  inspectPage,
  inspectRequestSchema,
} from "./inspect.ts";
export {
  type BlockedRequest,
  BrowserFailure,
  type BrowserFailureClass,
  type Operation,
  operationSchema,
} from "./operations.ts";
export type { BrowserSession } from "./session.ts";
export { BrowserSupervisor, type SupervisorOptions } from "./supervisor.ts";
