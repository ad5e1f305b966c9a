// The dispatcher as composed policies, the way cockatiel's `wrap()` composes them: every stage has one
// method, `execute(call, next)`, and either answers itself or hands the call on to `next`. A tool's
// pipeline is built once per tool definition (tool-pipeline.ts), leaving out stages its policy has no use
// for, so a call pays only for what its tool needs.
import type { Call } from "./call.ts";

/** The rest of the pipeline after a stage; resolves with the output the call is answered with. */
export type Next = (call: Call) => Promise<unknown>;

export interface Stage {
  execute(call: Call, next: Next): Promise<unknown>;
}

const END: Next = () => Promise.reject(new Error("the pipeline ended without a provider stage"));

/** `stages[0]` runs first; the last stage must answer without calling its `next`. */
export function compose(stages: readonly Stage[]): Next {
  let next = END;
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i] as Stage;
    const after = next;
    next = (call) => stage.execute(call, after);
  }
  return next;
}

/** Runs `next`, turning a synchronous throw into a rejection so every stage can rely on a promise. */
export function proceed(next: Next, call: Call): Promise<unknown> {
  try {
    return next(call);
  } catch (error) {
    return Promise.reject(error);
  }
}
