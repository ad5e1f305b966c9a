export {
  BUNDLED_CATALOG,
  ConfigError,
  EMBEDDER_KINDS,
  type Env,
  envSchema,
  isOwnSetting,
  readEnv,
} from "./env.ts";
export { createLogger, type Logger } from "./logger.ts";
export { moduleFile } from "./module-file.ts";
export { nodeTooOld, REQUIRED_NODE_MAJOR } from "./node-version.ts";
export { VERSION } from "./version.ts";
