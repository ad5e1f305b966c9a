// Context modifiers. A tool that changes shared state (say, a working directory) returns its output
// wrapped by `withContextModifier(output, patch)`; the dispatcher strips the wrapper, and after the whole
// batch has finished it merges each patch into the batch's context in call order (a key set to undefined
// is removed). Calls in a batch all see the context as it was when the batch started.

const CONTEXT_MODIFIER = Symbol.for("switchboard.contextModifier");

export interface ContextModified {
  readonly [CONTEXT_MODIFIER]: Readonly<Record<string, unknown>>;
  readonly output: unknown;
}

export function withContextModifier(output: unknown, patch: Record<string, unknown>): ContextModified {
  return { [CONTEXT_MODIFIER]: patch, output };
}

function isContextModified(result: unknown): result is ContextModified {
  return result !== null && typeof result === "object" && CONTEXT_MODIFIER in result;
}

/** A provider result's output, without the context modifier wrapper if it has one. */
export function outputOf(result: unknown): unknown {
  return isContextModified(result) ? result.output : result;
}

/** A provider result's context patch, if it has one. (Two functions, not one returning a pair, so that an
 * answer without a patch, nearly all of them, costs no allocation.) */
export function patchOf(result: unknown): Readonly<Record<string, unknown>> | undefined {
  return isContextModified(result) ? result[CONTEXT_MODIFIER] : undefined;
}

export function applyPatches(
  context: Record<string, unknown>,
  patches: readonly (Readonly<Record<string, unknown>> | undefined)[],
): void {
  for (const patch of patches) {
    if (!patch) continue;
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete context[key];
      else context[key] = value;
    }
  }
}
