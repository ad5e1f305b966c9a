// The dispatcher as composed policies, the way cockatiel's `wrap()` composes them: every stage has one
// method, `execute(call, next)`, and either answers itself or hands the call on to `next`. A tool's
// pipeline is built once per tool definition (tool-pipeline.ts), leaving out stages its policy has no use
// for, so a call pays only for what its tool needs.
import type { Call } from "./call.ts";
import { Pending } from "./pending.ts";

/**
 * The rest of the pipeline after a stage. What it returns settles with the call once the call's `outcome`
 * is set (answered, with `output`, or failed, with `failure`), and is never rejected. A stage reacts with
 * `after(handler)`; a handler that takes the call needs no closure per call.
 */
export type Next = (call: Call) => Pending;

export interface Stage {
  execute(call: Call, next: Next): Pending;
}

const END: Next = (call) => Pending.of(call.fail(new Error("the pipeline ended without a provider stage")));

type Link = (stage: Stage, after: Next) => Next;

// One link function per place in a pipeline. Closures made from one function literal share V8's type
// feedback, so a single literal would see every stage class at its `stage.execute` call and go
// megamorphic (no inlining, a generic lookup per stage per call); with a literal per place, each call site
// sees only the stages that sit at that place, usually one (measured in `npm run bench:dispatch`).
const LINKS: readonly Link[] = [
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
  (stage, after) => (call) => stage.execute(call, after),
];

/** `stages[0]` runs first; the last stage must answer without calling its `next`. */
export function compose(stages: readonly Stage[]): Next {
  let next = END;
  for (let i = stages.length - 1; i >= 0; i--) {
    const link = LINKS[i] ?? (LINKS[LINKS.length - 1] as Link);
    next = link(stages[i] as Stage, next);
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
