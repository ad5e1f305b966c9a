// Crash-safe file writes: write-file-atomic writes a temporary file, fsyncs it and renames it over the
// target (and serialises concurrent writes to one path within a process); proper-lockfile keeps two
// processes from interleaving read-modify-write cycles on the same file.

import { randomUUID } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import writeFileAtomic from "write-file-atomic";

export async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, typeof data === "string" ? data : Buffer.from(data), { fsync: true });
}

/**
 * For writers that only take a file name (hnswlib's writeIndex): `produce` writes a temporary file in the
 * same folder, which then replaces `path` in one rename. A crash leaves the old file or the new one.
 */
export async function writeAtomicVia(path: string, produce: (temporaryPath: string) => Promise<void> | void) {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await produce(temporary);
    const handle = await open(temporary, "r+");
    await handle.sync();
    await handle.close();
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Runs `fn` holding an exclusive cross-process lock on `path` (which need not exist yet). */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dirname(path), { recursive: true });
  const release = await lockfile.lock(path, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}
