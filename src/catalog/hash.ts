import { createHash } from "node:crypto";
import type { Tool } from "./schema.ts";

/** JSON with object keys sorted, so that equal values always serialise (and hash) the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Content hash of a catalog, independent of tool order and key order. */
export function catalogHash(tools: readonly Tool[]): string {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return createHash("sha256").update(canonicalJson(sorted)).digest("hex");
}
