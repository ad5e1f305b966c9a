// The dispatcher as composed policies, the way cockatiel's `wrap()` composes them: every stage has one
// method, `execute(call, next)`, and either answers itself or hands the call on to `next`. A tool's
// pipeline is built once per tool definition (tool-pipeline.ts), leaving out stages its policy has no use
// for, so a call pays only for what its tool needs.
//
// What is here: the `Stage` and `Next` types, `compose` (which chains a tool's stages into one `Next`),
// `proceed` (a `next` whose synchronous throw becomes the call's failure) and LINKS, one closure literal
// per place in a pipeline.
//
// How a call flows: the dispatcher calls the composed `run(call)`; each link calls its stage's
// `execute(call, after)`, where `after` is the link for the next place, down to the provider stage, which
// answers without calling `next`. Each stage gets back a `Pending` and reacts to the outcome with
// `after(handler)`, so on the way out the handlers run innermost first (pending.ts).
//
// What must stay true: the last stage answers; a stage never rejects, it sets the call's outcome
// (`call.fail`, `call.answer`) and returns a `Pending`; a stage that is left out costs nothing. LINKS keeps
// at least as many literals as the longest pipeline has stages (tool-pipeline.ts: arguments, degraded,
// cache, key limit, then six per provider), or the places past it share the last one, which stays correct
// but slower. Run `npm run bench:dispatch` after changing anything here.
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
