// An imported catalog written as a file: whole or not at all (temporary file, fsync, rename), so an import
// stopped half-way never leaves a truncated catalog behind. The store is loaded only to write: its
// file-locking dependency listens for SIGTERM and SIGINT, and a JavaScript listener makes the signal wait for
// the event loop, which a long parse can hold; without one, the signal ends an import at once.
import type { Tool } from "./schema.ts";

export async function writeCatalogFile(path: string, tools: Tool[]): Promise<void> {
  const { writeAtomic } = await import("../store/index.ts");
  await writeAtomic(path, `${JSON.stringify(tools, null, 2)}\n`);
}
