export { withFileLock, writeAtomic, writeAtomicVia } from "./atomic.ts";
export { sharedEmbeddings } from "./pg-embeddings.ts";
export { PgStore } from "./pg-store.ts";
export { type DataStore, FileStore, StoreError, StoreUnavailableError } from "./store.ts";
