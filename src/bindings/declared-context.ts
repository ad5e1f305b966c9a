// A provider's view of the session context: only the keys its binding declares it reads, and only changes
// to the keys it declares it writes.
import { readPath } from "../catalog/index.ts";

type Context = Readonly<Record<string, unknown>>;

const NOTHING: Context = Object.freeze({});

/** The declared keys of the context that are set. */
export function readable(context: Context, keys: readonly string[] | undefined): Context {
  if (keys === undefined || keys.length === 0) return NOTHING;
  const view: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(context, key)) view[key] = context[key];
  return view;
}

/**
 * Context changes an http answer makes: each declared key set to the value at its path, when present
 * (null removes the key, everywhere a change is made).
 */
export function changesIn(
  answer: unknown,
  writes: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, path] of Object.entries(writes)) {
    const value = readPath(answer, path, {});
    if (value !== undefined) patch[key] = value ?? undefined;
  }
  return patch;
}

/** A change a tool asked for, kept to the keys it may write; undefined when nothing is left. */
export function allowedChanges(
  requested: unknown,
  keys: readonly string[] | undefined,
): Record<string, unknown> | undefined {
  if (requested === null || typeof requested !== "object" || Array.isArray(requested)) return undefined;
  const patch: Record<string, unknown> = {};
  for (const key of keys ?? [])
    if (Object.hasOwn(requested, key)) patch[key] = (requested as Record<string, unknown>)[key] ?? undefined;
  return Object.keys(patch).length > 0 ? patch : undefined;
}
