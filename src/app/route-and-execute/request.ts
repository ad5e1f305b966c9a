// A whole request: one intent, or several answered in order, with exact accounting of what ran. Whether
// the split holds (every part finds a tool, not every part only asks) is decided on a dry run that routes
// and fills each part without executing anything; only then does anything run, and once something has run
// the request is never answered again whole. Every call that ran is in `calls` once, with its result.
import {
  primaryValue,
  referencedKind,
  refersToPrevious,
  splitIntents,
  substituteReference,
} from "../../intent/index.ts";
import type { RouteAndExecuteRequest } from "../requests.ts";
import type { ExecutedCall, RouteAndExecuteResponse, Step } from "../types.ts";
import { type AnswerDeps, answerOne } from "./answer.ts";
import { dropsQuestion } from "./dropped-question.ts";
import { onePerValue } from "./fan-out.ts";

/** The most intents one request is answered as. */
const MAX_INTENTS = 8;

/** A part that refers to another's result by a pronoun. */
const DEPENDENT = /\b(?:it|that|them|the result)\b/i;

/** The calls an answer's steps record as run, in order. */
export function callsIn(steps: Step[], intent?: number): ExecutedCall[] {
  return steps.flatMap((step) =>
    step.step === "execute"
      ? [
          {
            tool: step.tool,
            arguments: step.arguments,
            result: step.result,
            ...(intent !== undefined ? { intent } : {}),
          },
        ]
      : [],
  );
}

/** `answer` with the calls it ran listed at the top. */
function accounted(answer: RouteAndExecuteResponse): RouteAndExecuteResponse {
  const calls = answer.intents
    ? answer.intents.flatMap((part, i) => callsIn(part.steps, i))
    : callsIn(answer.steps);
  return { ...answer, calls };
}

/**
 * Routes and fills a part as it would be answered, runs nothing, asks no one and writes no tool: "completed"
 * here means "would run".
 */
function dryRun(request: RouteAndExecuteRequest, deps: AnswerDeps): Promise<RouteAndExecuteResponse> {
  const { ask: _ask, llm: _llm, ...offline } = deps;
  return answerOne(request, {
    ...offline,
    run: async (tool, _args, steps) => ({ status: "completed", tool: tool.name, steps }),
    noMatch: async (_r, steps) => ({ status: "no_match", steps }),
  });
}

/** The dry run of one of a request's texts: the whole request's (`part` false) or one of its parts'. */
type Plan = (query: string, part: boolean) => Promise<RouteAndExecuteResponse>;

/**
 * Dry runs of one request's texts, each planned once however many of the checks below ask for it: the
 * follow-up join and the split check plan the same parts, and the split check and the per-value check the
 * same whole request.
 */
function planner(request: RouteAndExecuteRequest, deps: AnswerDeps): Plan {
  const plans = new Map<string, Promise<RouteAndExecuteResponse>>();
  return (query, part) => {
    const key = `${part ? "part" : "whole"}\u0000${query}`;
    let plan = plans.get(key);
    if (!plan) {
      plan = dryRun({ ...request, query }, part ? { ...deps, part: true } : deps);
      plans.set(key, plan);
    }
    return plan;
  };
}

/**
 * Whether the split holds: every part finds a tool (a dependent one may not yet), and not every part only
 * asks. With `tool`, every part must find that one (the parts of one call per value).
 */
async function splitHolds(
  request: RouteAndExecuteRequest,
  intents: string[],
  plan: Plan,
  tool?: string,
): Promise<boolean> {
  const planned: RouteAndExecuteResponse[] = [];
  for (const [i, intent] of intents.entries()) {
    const partPlan = await plan(intent, true);
    // A part that works on another's result ("… and then double it") cannot be dropped by answering the
    // request whole: it stays, unanswered.
    if (partPlan.status === "no_match" && !(i > 0 && DEPENDENT.test(intent))) return false;
    if (tool !== undefined && partPlan.tool !== tool) return false;
    planned.push(partPlan);
  }
  // Parts that all ask for input ("compare the two versions and tell me which is newer") were one request;
  // a part that had every value and only awaits confirmation (its confidence is under the bar) asks nothing
  // that a split would explain.
  if (planned.every((p) => p.status === "needs_input" && !hadEveryValue(p))) return false;
  // A part that asks for values the request as a whole gives may be one call told in several parts: when
  // the request answered whole is that part's tool with every value and none unused, it was. So when
  // another part names the same tool ("Dinner came to $84.50. Add an 18% tip and split it between 3
  // people"), or when the part only continues the first one's words ("set zone G2 to 24 degrees and 65%
  // humidity": its second part is "set zone G2 to 65% humidity"). A part in words of its own is a request
  // of its own ("the final velocity given …. Also compute the distance covered"), and parts of one tool
  // that the whole cannot answer are several calls ("the weather in Paris. Do the same for London").
  const at = planned.findIndex((p) => p.status === "needs_input" && !hadEveryValue(p));
  const asking = planned[at];
  if (!asking) return true;
  const sameTool = planned.some((q) => q !== asking && q.tool === asking.tool);
  if (!sameTool && !(at > 0 && continues(intents[at] ?? "", intents[0] ?? ""))) return true;
  const whole = await plan(request.query, false);
  if (whole.tool !== asking.tool) return true;
  // Nor is it a split when the whole request is that tool's call once per value ("convert 5 miles and 10
  // miles to km": "convert 5 miles" lacks its target); answered one part per value instead.
  if (sameTool && whole.missing?.some((m) => m.several)) return false;
  return !(hadEveryValue(whole) && !leavesValueUnused(whole));
}

/**
 * The parts, each question that only asks more of the part before it joined to that part: it asks that
 * part's tool for its values and reads none of its own ("Contractor engagement runs 2025-02-03 to
 * 2025-07-18. How many business days is that?", "… splitting between 4. What does each person pay?").
 * Only when no other part calls that tool: parts of one tool told in several ("The first one has …. The
 * second one has …. Can you calculate both?") are several calls, as splitHolds decides.
 */
async function withFollowUpsJoined(intents: string[], plan: Plan): Promise<string[]> {
  const plans: RouteAndExecuteResponse[] = [];
  for (const intent of intents) plans.push(await plan(intent, true));
  const calls = (tool: string | undefined) => plans.filter((p) => p.tool === tool).length;
  const joined: string[] = [];
  for (const [i, intent] of intents.entries()) {
    const part = plans[i] as RouteAndExecuteResponse;
    const previous = plans[i - 1];
    const asksMore =
      previous !== undefined &&
      part.status === "needs_input" &&
      part.tool === previous.tool &&
      calls(part.tool) === 2 &&
      !readsOwnValue(part);
    if (asksMore) joined[joined.length - 1] = `${joined.at(-1)}. ${intent}`;
    else joined.push(intent);
  }
  return joined;
}

/** Whether a part's call read any value from its own text. */
function readsOwnValue(answer: RouteAndExecuteResponse): boolean {
  return answer.steps.some((s) => s.step === "arguments" && s.filled.some((v) => v.source === "query"));
}

/** Whether a part begins with the first part's first two words: a continuation that borrowed its lead. */
function continues(part: string, first: string): boolean {
  const lead = (text: string) => text.toLowerCase().split(/\s+/).slice(0, 2).join(" ");
  return first.split(/\s+/).length > 2 && lead(part) === lead(first);
}

/** Whether a call leaves a value the request states unused (the arguments step's `unused_value` signal). */
function leavesValueUnused(answer: RouteAndExecuteResponse): boolean {
  return answer.steps.some((s) => s.step === "arguments" && s.signals?.includes("unused_value") === true);
}

/** Whether a part's call had every value it needs at hand (the arguments step's `ready`). */
function hadEveryValue(answer: RouteAndExecuteResponse): boolean {
  return answer.steps.some((s) => s.step === "arguments" && s.ready === true);
}

/** The text of a part, with a reference to the previous part's result replaced by it. */
function resolved(intent: string, previous: RouteAndExecuteResponse | undefined): string {
  if (!previous || !refersToPrevious(intent)) return intent;
  const output = previous.status === "completed" ? previous.result?.output : undefined;
  const call = previous.steps.find((s) => s.step === "arguments");
  const args =
    call && call.step === "arguments" ? Object.fromEntries(call.filled.map((v) => [v.field, v.value])) : {};
  const value = primaryValue(output, args, referencedKind(intent));
  return value === undefined ? intent : substituteReference(intent, value);
}

const RAN = new Set<RouteAndExecuteResponse["status"]>(["completed", "failed"]);

/**
 * The status of several parts: completed when all completed; partial when some ran and others did not
 * complete; otherwise the first part's status that is not completed.
 */
function overallStatus(parts: RouteAndExecuteResponse[]): RouteAndExecuteResponse["status"] {
  const pending = parts.find((a) => a.status !== "completed");
  if (!pending) return "completed";
  return parts.some((a) => RAN.has(a.status)) ? "partial" : pending.status;
}

/**
 * Answers a request: one intent, or each of several in order. A split is kept only when the dry run says
 * every intent finds a tool; otherwise the request is answered whole.
 */
export async function answerRequest(
  request: RouteAndExecuteRequest,
  deps: AnswerDeps,
): Promise<RouteAndExecuteResponse> {
  const proposed = request.arguments ? [request.query] : splitIntents(request.query);
  const plan = planner(request, deps);
  // Parts are planned only for as many as a request is answered as.
  const split =
    proposed.length >= 2 && proposed.length <= MAX_INTENTS
      ? await withFollowUpsJoined(proposed, plan)
      : proposed;
  // A long message cut into many parts is not a list of requests: it is answered whole.
  const several = split.length >= 2 && split.length <= MAX_INTENTS;
  const intents =
    several && (await splitHolds(request, split, plan))
      ? split
      : ((await perValue(request, plan)) ??
        (several && dropsQuestion(request.query, split, await plan(request.query, false))
          ? split
          : undefined));
  if (!intents) return accounted(await answerOne(request, deps));
  return answerParts(request, intents, deps);
}

/** A list joiner: a request without one names no several values. */
const JOINER = /,|\b(?:and|or|respectively)\b/i;

/**
 * The request as one part per value, when it names several values for one of its tool's single-valued
 * parameters and the parts hold as a split would (fan-out.ts); otherwise undefined.
 */
async function perValue(request: RouteAndExecuteRequest, plan: Plan): Promise<string[] | undefined> {
  if (request.arguments || !JOINER.test(request.query)) return undefined;
  const whole = await plan(request.query, false);
  if (whole.status !== "needs_input" || !whole.missing || !whole.tool) return undefined;
  const parts = onePerValue(request.query, whole.missing, MAX_INTENTS);
  // Each part is the whole request's call with one value: a part that another tool answers is no such call.
  return parts && (await splitHolds(request, parts, plan, whole.tool)) ? parts : undefined;
}

/** Each part in order; a later part may work on an earlier one's result. */
async function answerParts(
  request: RouteAndExecuteRequest,
  intents: string[],
  deps: AnswerDeps,
): Promise<RouteAndExecuteResponse> {
  const answers: RouteAndExecuteResponse[] = [];
  let previous: RouteAndExecuteResponse | undefined;
  for (const intent of intents) {
    const text = resolved(intent, previous);
    // A part that finds nothing now stays unanswered: the parts before it may have run, so the request is
    // not answered again whole, and no tool is written for a part.
    const answer = await answerOne(
      { ...request, query: text },
      { ...deps, part: true, noMatch: async (_r, steps) => ({ status: "no_match", steps }) },
    );
    answers.push({ ...answer, intent: text });
    previous = answer;
  }
  return accounted({ status: overallStatus(answers), intents: answers, steps: [{ step: "split", intents }] });
}
