export { BUNDLED_CATALOG, ConfigError, type Env, envSchema, isOwnSetting, readEnv } from "./env.ts";
export { createLogger, type Logger } from "./logger.ts";
export { moduleFile } from "./module-file.ts";
export { VERSION } from "./version.ts";
