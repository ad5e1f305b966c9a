// The data folder behind one small interface, so a deployment that outgrows one machine can put catalog,
// vectors, breaker/cache state and execution history in shared stores without touching their users.
import { type FSWatcher, mkdirSync, watch } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { z } from "zod";
import { withFileLock, writeAtomic, writeAtomicVia } from "./atomic.ts";

/** The shared store cannot be reached (PostgreSQL down or restarting); the change was not made. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `the shared database is unreachable (${(cause as Error)?.message ?? cause}); the change was not made`,
    );
    this.name = "StoreUnavailableError";
  }
}

export class StoreError extends Error {
  readonly key: string;
  constructor(key: string, message: string) {
    super(`data ${key}: ${message}`);
    this.name = "StoreError";
    this.key = key;
  }
}

export interface DataStore {
  readonly root: string;
  readBytes(key: string): Promise<Uint8Array | undefined>;
  writeBytes(key: string, data: string | Uint8Array): Promise<void>;
  /** Parsed and validated; undefined when absent; StoreError when present but unreadable. */
  readJson<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined>;
  writeJson(key: string, value: unknown): Promise<void>;
  /** Locked read-modify-write across processes. */
  updateJson<T>(key: string, schema: z.ZodType<T>, change: (current: T | undefined) => T): Promise<T>;
  /** For native writers that take a file name; the result replaces `key` atomically. */
  writeVia(key: string, produce: (temporaryPath: string) => Promise<void> | void): Promise<void>;
  /** Local file path of a key, for native readers. */
  pathOf(key: string): string;
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
  /**
   * Calls `onChange` (soon, possibly more than once) after `key` changed, through this store or another
   * process sharing it, so that what was read from it can be read again.
   */
  subscribe(key: string, onChange: () => void): void;
  /** Stops following changes and lets go of connections. */
  close(): Promise<void>;
}

/** Stored bytes as JSON checked by `schema`; StoreError naming the key and the place otherwise. */
export function parseStored<T>(key: string, bytes: Uint8Array, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new StoreError(key, `not valid JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StoreError(key, `unexpected content at ${issue?.path.join(".") || "root"}: ${issue?.message}`);
  }
  return parsed.data;
}

export const jsonBytes = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Temporary files a crash can leave behind: ours end in `.tmp`, write-file-atomic's in `.<uint32>`, and
 * proper-lockfile's locks in `.lock`. They are never data, so listings skip them.
 */
function isWriteLeftover(name: string): boolean {
  return name.endsWith(".tmp") || name.endsWith(".lock") || /\.\d+$/.test(name);
}

export class FileStore implements DataStore {
  readonly root: string;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #subscribers = new Map<string, Set<() => void>>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (path !== this.root && !path.startsWith(this.root + sep))
      throw new StoreError(key, "key escapes the data folder");
    return path;
  }

  async readBytes(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  writeBytes(key: string, data: string | Uint8Array): Promise<void> {
    return writeAtomic(this.pathOf(key), data);
  }

  async readJson<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const bytes = await this.readBytes(key);
    return bytes === undefined ? undefined : parseStored(key, bytes, schema);
  }

  writeJson(key: string, value: unknown): Promise<void> {
    return this.writeBytes(key, jsonBytes(value));
  }

  updateJson<T>(key: string, schema: z.ZodType<T>, change: (current: T | undefined) => T): Promise<T> {
    return withFileLock(this.pathOf(key), async () => {
      const next = change(await this.readJson(key, schema));
      await this.writeJson(key, next);
      return next;
    });
  }

  writeVia(key: string, produce: (temporaryPath: string) => Promise<void> | void): Promise<void> {
    return writeAtomicVia(this.pathOf(key), produce);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true, recursive: true });
  }

  /**
   * Watches the key's folder rather than the file: every write replaces the file by a rename (atomic.ts),
   * which a watch on the file itself would lose track of. The folder is created if missing, so that a
   * file written there later is seen.
   */
  subscribe(key: string, onChange: () => void): void {
    const path = this.pathOf(key);
    let set = this.#subscribers.get(path);
    if (!set) {
      set = new Set();
      this.#subscribers.set(path, set);
    }
    set.add(onChange);
    const folder = dirname(path);
    if (this.#watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      mkdirSync(folder, { recursive: true });
      watcher = watch(folder, { persistent: false }, (_event, name) => this.#changed(folder, name));
    } catch {
      // Out of inotify watches, say: the service runs on and reads changes made beside it when it restarts.
      return;
    }
    // A folder removed under a running service ends the watch; nothing else depends on it.
    watcher.on("error", () => {
      watcher.close();
      this.#watchers.delete(folder);
    });
    this.#watchers.set(folder, watcher);
  }

  #changed(folder: string, name: string | null): void {
    if (name === null) {
      // The platform did not say which file changed: all of this folder's subscribers re-read.
      for (const [watched, callbacks] of this.#subscribers)
        if (dirname(watched) === folder) for (const callback of callbacks) callback();
      return;
    }
    for (const callback of this.#subscribers.get(join(folder, basename(name))) ?? []) callback();
  }

  async close(): Promise<void> {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#subscribers.clear();
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.pathOf(prefix);
    try {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && !isWriteLeftover(e.name))
        .map((e) => relative(this.root, join(e.parentPath, e.name)))
        .sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }
}
