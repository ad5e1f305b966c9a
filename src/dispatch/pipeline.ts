// The dispatcher as composed policies, the way cockatiel's `wrap()` composes them: every stage has one
// method, `execute(call, next)`, and either answers itself or hands the call on to `next`. A tool's
// pipeline is built once per tool definition (tool-pipeline.ts), leaving out stages its policy has no use
// for, so a call pays only for what its tool needs.
import type { Call } from "./call.ts";
import { Pending } from "./pending.ts";

/**
 * The rest of the pipeline after a stage. What it returns settles with the call once the call's `outcome`
 * is set (answered, with `output`, or failed, with `failure`), and is never rejected. A stage reacts with
 * `then(handler)`; a handler that takes the call needs no closure per call.
 */
export type Next = (call: Call) => Pending;

export interface Stage {
  execute(call: Call, next: Next): Pending;
}

const END: Next = (call) => Pending.of(call.fail(new Error("the pipeline ended without a provider stage")));

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

/** Runs `next`, turning a synchronous throw into the call's failure. */
export function proceed(next: Next, call: Call): Pending {
  try {
    return next(call);
  } catch (error) {
    return Pending.of(call.fail(error));
  }
}
