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

/** Splits a provider result into its output and its context patch, if any. */
export function unwrapContextModifier(result: unknown): {
  output: unknown;
  patch?: Readonly<Record<string, unknown>>;
} {
  if (result !== null && typeof result === "object" && CONTEXT_MODIFIER in result) {
    const modified = result as ContextModified;
    return { output: modified.output, patch: modified[CONTEXT_MODIFIER] };
  }
  return { output: result };
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
