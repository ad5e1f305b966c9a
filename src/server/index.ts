export { type Access, Authenticator, type Caller, type Keys, keyId, type Role } from "./auth.ts";
export { BUILT_CONSOLE, CONSOLE_PATH } from "./console/index.ts";
export {
  BODY_LIMIT_BYTES,
  createHttpServer,
  DRAIN_DEADLINE_MS,
  type HttpServer,
  type HttpServerOptions,
} from "./http.ts";
export { createMcpServer, type McpOptions } from "./mcp.ts";
export { isLoopbackHost } from "./origin.ts";
