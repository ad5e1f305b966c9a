export { withFileLock, writeAtomic, writeAtomicVia } from "./atomic.ts";
export { type DataStore, FileStore, StoreError } from "./store.ts";
