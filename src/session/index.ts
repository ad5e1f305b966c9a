// Sessions: the context a session's tool calls share, stored behind a small get/set interface.
export { type Context, SessionContexts, type SessionOptions, type SessionRun } from "./contexts.ts";
export { type MemoryStoreOptions, memorySessionStore, type SessionStore } from "./store.ts";
