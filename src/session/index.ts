// Sessions: the context a session's tool calls share, stored behind a small get/update interface.
export { SessionContexts, type SessionRun } from "./session-contexts.ts";
export {
  type Context,
  type ContextBounds,
  type ContextChanges,
  contextBytes,
  type MemoryStoreOptions,
  memorySessionStore,
  type SessionStore,
  SessionStoreUnavailableError,
  type UpdateOutcome,
} from "./store.ts";
