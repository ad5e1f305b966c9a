// Route-and-execute for one request: opaque values out of the routing text, candidates re-ranked by the
// arguments they can take (supplied by the agent or found in the request), arguments filled from the
// request, and "needs_input" instead of a guess when a required value is missing. A request of several
// intents is request.ts's.
import { type Tool, validateAgainstSchema } from "../../catalog/index.ts";
import {
  askedForWords,
  type Evidence,
  FILL_CONFIDENCE,
  type FillResult,
  fillArguments,
  findOpaqueValues,
  type MissingField,
  namesAskedFor,
  questionFor,
} from "../../intent/index.ts";
import { type LlmConfig, LlmError } from "../../llm/index.ts";
import type { RouteAndExecuteRequest, RouteRequest } from "../requests.ts";
import type { AskUser, RouteAndExecuteResponse, RouteResponse, Step } from "../types.ts";
import { askForMissing } from "./ask.ts";
import { doubtsOf, failedQueryValues, properties } from "./doubts.ts";
import { isDataList, readsExactValue } from "./exact-values.ts";
import { fillWithLlm } from "./llm-fill.ts";
import { otherVariant } from "./other-variant.ts";
import { routingQuery } from "./routing-query.ts";
import { requestCues, setAsideFor } from "./set-aside.ts";
import { isBare, namedInRequest, toolWords } from "./tool-words.ts";

export interface AnswerDeps {
  route(request: RouteRequest): Promise<RouteResponse>;
  getTool(name: string): Tool | undefined;
  /** Validates and runs a call, appending its steps. */
  run(tool: Tool, args: Record<string, unknown>, steps: Step[]): Promise<RouteAndExecuteResponse>;
  /** What to do when nothing fits: write a tool with the LLM, or answer no_match. */
  noMatch(request: RouteAndExecuteRequest, steps: Step[]): Promise<RouteAndExecuteResponse>;
  /** When configured, the LLM fills the arguments the agent did not send. */
  llm?: LlmConfig;
  /** When the caller can, the user is asked for missing values before needs_input is answered. */
  ask?: AskUser;
  /** The request is one part of a message split in several (request.ts): a doubt for a bare tool's call. */
  part?: boolean;
}

const CANDIDATES = 8;
/** How far below the threshold a candidate may be when the evidence for it is exact (its arguments fit). */
const EVIDENCE_MARGIN = 0.15;

/** Evidence whose shape alone says what a value is: placing one is evidence for the tool, unlike a bare number. */
const TYPED_EVIDENCE: ReadonlySet<Evidence> = new Set(["shape", "enum"]);

/** Placements any tool with a number or a string parameter could make: no evidence for one tool. */
const WEAK_EVIDENCE: ReadonlySet<Evidence> = new Set(["order", "quoted", "list", "text_order", "text_kind"]);

/** The typed values a fill placed; a quantity with its two units counts once. */
function typedValues(fill: FillResult): string[] {
  const typed = fill.filled.filter((v) => v.evidence !== undefined && TYPED_EVIDENCE.has(v.evidence));
  const units = fill.filled.some((v) => v.evidence === "units") ? ["quantity with units"] : [];
  return [...typed.map((v) => v.how ?? v.evidence ?? ""), ...units];
}

/**
 * Whether a candidate's fill rests on more than bare numbers and quoted text that any tool could take.
 * `enums` false leaves out enum values named: for a tool that requires nothing they only configure it.
 */
function strongEvidence(candidate: Candidate, enums = true): boolean {
  return (
    candidate.fill.placedOpaque.length > 0 ||
    candidate.fill.filled.some(
      (v) =>
        v.source === "agent" ||
        (v.evidence !== undefined && !WEAK_EVIDENCE.has(v.evidence) && (enums || v.evidence !== "enum")),
    )
  );
}

interface Candidate {
  tool: Tool;
  score: number;
  adjusted: number;
  fill: FillResult;
  evidence: string[];
  eligible: boolean;
  /** Every required value is available and at least one value came from the request or the agent. */
  satisfied: boolean;
  /** The request calls the tool by its name. */
  named?: boolean;
}

/** Whether every value `other` read from the request lies where `fill` read one too. */
function covers(fill: FillResult, other: FillResult): boolean {
  const spans = fill.filled.flatMap((v) => (v.source === "query" && v.span ? [v.span] : []));
  return other.filled.every(
    (v) =>
      v.source !== "query" ||
      !v.span ||
      spans.some((s) => s.start < (v.span?.end ?? 0) && s.end > (v.span?.start ?? 0)),
  );
}

/**
 * A call-level signal on a described tool's fill, at its row of the confidence table; a bare tool's fill is
 * weighed by its own table's doubts (weak_match among them), so only the signal is recorded.
 */
function withSignal(fill: FillResult, signal: Evidence, bare: boolean): FillResult {
  if (fill.signals.includes(signal)) return fill;
  return {
    ...fill,
    signals: [...fill.signals, signal],
    confidence: bare ? fill.confidence : Math.min(fill.confidence, FILL_CONFIDENCE[signal]),
  };
}

/** How far above a candidate that can run, one that cannot (a required value is missing) must score to win. */
const SATISFIABLE_MARGIN = 0.12;

/** The best eligible candidate; one whose required values are missing yields to a close one that can run. */
function choose(candidates: Candidate[], threshold: number): Candidate | undefined {
  const eligible = candidates
    .filter((c) => c.eligible && !declined(c, threshold))
    .sort((a, b) => b.adjusted - a.adjusted);
  const best = eligible[0];
  // One that can run but leaves a stated value unused ("convert 31 days to hours" as a date plus 31 days)
  // yields, as one that cannot, to a close one that uses every value.
  if (!best || (best.satisfied && best.fill.unused.length === 0)) return best;
  // Only on evidence of its own: a bare number is not a reason to run another tool ("7 factorial" is not
  // a base conversion of 7).
  // Nor when it would leave out a value the best one read ("when it is 9am my time, what time is it in
  // Tokyo" is no request for Tokyo's time now, though that tool can run).
  const runnable = eligible.find(
    (c) =>
      c !== best &&
      c.satisfied &&
      (!best.satisfied || c.fill.unused.length === 0) &&
      strongEvidence(c) &&
      // Nor on a value placed by its order alone ("3 of us … leave 20%" is no loan of 3 at 20%).
      !c.fill.filled.some((v) => v.evidence === "order") &&
      c.adjusted >= best.adjusted - SATISFIABLE_MARGIN &&
      covers(c.fill, best.fill),
  );
  if (!runnable) return best;
  const lacks = best.satisfied
    ? `leaves ${best.fill.unused.map((u) => JSON.stringify(u.text)).join(", ")} unused`
    : `lacks ${best.fill.missing.map((m) => m.field).join(", ")}`;
  runnable.evidence.push(`preferred over ${best.tool.name}, which ${lacks}`);
  return runnable;
}

/**
 * How far above the threshold a tool must score to run when nothing in the request is evidence for it: a
 * tool that requires nothing runs on its defaults, so the words alone must make the case ("generate a
 * barcode" is not a request for a UUID).
 */
const DEFAULTS_MARGIN = 0.2;

/**
 * How far above the threshold a tool must score to ask for its values when the request gives it none: a
 * request no tool serves ("order new running shoes") otherwise gets a question from whichever tool its
 * words graze.
 */
const ASK_MARGIN = 0.12;

/** The names a tool's schema requires. */
function requiredOf(tool: Tool): string[] {
  const required = (tool.inputSchema as { required?: unknown }).required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
}

/**
 * Whether a candidate is set aside for want of evidence; the reason goes into its `why`. Quoted text and
 * bare numbers are values any tool could take, so a fill resting on them alone says nothing of the tool's
 * purpose: then the words must make the case, as for a tool that requires nothing ("mirror the letters of
 * \"drawer\"" is not a request for text statistics, however well the quoted word fits its text parameter).
 */
function declined(c: Candidate, threshold: number): boolean {
  const requiresNothing = requiredOf(c.tool).length === 0;
  // Several numbers placed as a list are for a tool that takes a list, not any tool.
  if (strongEvidence(c, !requiresNothing) || c.fill.filled.some((v) => v.evidence === "list")) return false;
  // A bare tool (an imported function) is scored on its description alone, the scale the shipped threshold
  // was fitted on, so its words meet the threshold or not: the right one with values that are not in the
  // text is named (needs_input), and whether a call of it runs is its fitted confidence's to say, which
  // weighs a weak route. One that requires nothing would run on its defaults, so the words must still
  // make the case.
  if (isBare(c.tool) && !requiresNothing) return false;
  if (c.fill.missing.length > 0) {
    if (c.score >= threshold + ASK_MARGIN) return false;
    c.evidence.push("declined: the request gives it none of its own values, and the words are weak");
    return true;
  }
  // A request that calls the tool by its name makes the case its words otherwise must.
  if (c.score >= threshold + DEFAULTS_MARGIN || (c.named && !requiresNothing)) return false;
  c.evidence.push(
    requiresNothing
      ? "declined: requires nothing, the request gives it nothing, and the words are weak"
      : "declined: the request gives it only values any tool could take, and the words are weak",
  );
  return true;
}

/** Score adjustments from the arguments: exact evidence moves a candidate, words alone do not. */
function weigh(
  tool: Tool,
  score: number,
  matched: boolean,
  threshold: number,
  fill: FillResult,
  supplied: Record<string, unknown>,
): Candidate {
  const evidence: string[] = [];
  let adjusted = score;
  let exact = false;
  const keys = Object.keys(supplied);
  if (keys.length > 0) {
    const known = keys.filter((k) => k in properties(tool));
    const closed = (tool.inputSchema as { additionalProperties?: unknown }).additionalProperties === false;
    const issues = validateAgainstSchema(tool.inputSchema, fill.arguments);
    adjusted += 0.15 * (known.length / keys.length);
    if (closed && known.length < keys.length) {
      adjusted -= 0.2;
      evidence.push(`does not accept ${keys.filter((k) => !known.includes(k)).join(", ")}`);
    } else if (known.length === keys.length) evidence.push(`accepts the given ${keys.join(", ")}`);
    if (known.length === keys.length && issues.length === 0) {
      adjusted += 0.05;
      exact = true;
      evidence.push("the given arguments validate");
    }
  }
  if (fill.placedOpaque.length > 0) {
    adjusted += 0.05 * fill.placedOpaque.length;
    exact = true;
    evidence.push(`takes the ${fill.placedOpaque.join(", ")} in the request`);
  }
  const typed = typedValues(fill);
  if (typed.length > 0) {
    adjusted += 0.08 * typed.length;
    evidence.push(`takes the ${typed.join(", ")} in the request`);
  }
  // A quantity with its two units ("35 psi in bar") is as exact as an opaque value; so is a value with a
  // shape of its own (a date, a version) that completes the call on values none of which any tool could
  // take: a time ("remind me to call John at 5pm") is said to many a request no tool serves.
  const completes =
    fill.missing.length === 0 && fill.filled.every((v) => !v.evidence || !WEAK_EVIDENCE.has(v.evidence));
  if (fill.filled.some((v) => v.evidence === "units" || (v.evidence === "shape" && completes))) exact = true;
  if (fill.missing.length === 0) {
    adjusted += 0.03;
    evidence.push("every required value is available");
  } else {
    // Half by how many values it lacks (fewer questions to ask), half by their share of what it needs: a tool
    // that needs fewer values is no better a fit for lacking fewer ("a refill" by its one id against "a
    // drug's price" by its name, dose and count).
    const lacking = new Set(fill.missing.map((m) => m.field)).size;
    const wanted = new Set([...requiredOf(tool), ...fill.missing.map((m) => m.field)]).size;
    adjusted -= 0.01 * lacking + 0.01 * (lacking / Math.max(1, wanted));
    evidence.push(`missing ${fill.missing.map((m) => m.field).join(", ")}`);
  }
  const eligible = matched || (exact && score >= threshold - EVIDENCE_MARGIN);
  const satisfied = fill.missing.length === 0 && fill.filled.length > 0;
  return { tool, score, adjusted, fill, evidence, eligible, satisfied };
}

/**
 * Call-level signals, rows of the confidence table: a tool run in place of one the router scored higher
 * (the evidence re-ranked them, or the first lacked a value), and a tool the router scores barely above the
 * bar when the values it reads are ones any tool could take (numbers by their order, quoted text, two listed),
 * or when it was run in place of the first on no exact value: then nothing but weak words says it fits.
 */
function markCallSignals(chosen: Candidate, candidates: Candidate[], threshold: number, query: string): void {
  const first = candidates
    .filter((c) => c.eligible && !c.evidence.some((e) => e.startsWith("declined")))
    .sort((a, b) => b.score - a.score)[0];
  // A variant the tool does not know ("base32" to a base64 tool) is a stated value the call leaves out.
  if (otherVariant(query, chosen.tool))
    chosen.fill = withSignal(chosen.fill, "unused_value", isBare(chosen.tool));
  const switched = first !== undefined && first !== chosen && first.score > chosen.score;
  if (switched) chosen.fill = withSignal(chosen.fill, "switched", isBare(chosen.tool));
  // So is a tool run in place of the router's first that the router barely accepts, when no value it
  // reads is exact ("what time the livestream starts in Berlin" is no request for Berlin's time now).
  const exact = readsExactValue(chosen.fill, query);
  if (
    chosen.score < threshold + ASK_MARGIN &&
    ((switched && !exact) ||
      chosen.fill.filled.every(
        (v) => v.source !== "query" || (v.evidence && WEAK_EVIDENCE.has(v.evidence) && !isDataList(v)),
      ))
  )
    chosen.fill = withSignal(chosen.fill, "weak_route", isBare(chosen.tool));
}

/**
 * The call's doubts, and when an LLM is configured, its fill of them: the LLM is asked only about what the
 * offline filler could not settle, and what that read surely stays.
 */
async function settleDoubts(
  query: string,
  tool: Tool,
  offline: FillResult,
  supplied: Record<string, unknown>,
  llm: LlmConfig | undefined,
): Promise<{ fill: FillResult; doubts: MissingField[]; llmProblem?: string }> {
  const doubts = doubtsOf(tool, offline, supplied);
  if (!llm || doubts.length === 0) return { fill: offline, doubts };
  try {
    const fill = await fillWithLlm(query, tool, offline, supplied, llm, new Set(doubts.map((d) => d.field)));
    return { fill, doubts: doubtsOf(tool, fill, supplied) };
  } catch (error) {
    // An unreachable LLM leaves the offline extraction's answer, which asks rather than guesses.
    if (!(error instanceof LlmError)) throw error;
    return { fill: offline, doubts, llmProblem: error.message };
  }
}

/** The router's candidates, each with its arguments filled from the request. */
function filledHits(
  request: RouteAndExecuteRequest,
  deps: AnswerDeps,
  routed: RouteResponse,
  askedFor: string[],
): { tool: Tool; score: number; fill: FillResult }[] {
  const supplied = request.arguments ?? {};
  return routed.tools.flatMap((hit) => {
    const tool = deps.getTool(hit.name);
    return tool
      ? [
          {
            tool,
            score: hit.score,
            fill: fillArguments(request.query, tool.inputSchema as Record<string, unknown>, supplied, {
              ...(tool.exampleCalls ? { examples: tool.exampleCalls } : {}),
              bare: isBare(tool),
              weakMatch: hit.score < routed.threshold + DEFAULTS_MARGIN,
              ...(tool.outputSchema ? { output: tool.outputSchema as Record<string, unknown> } : {}),
              askUnnamed: !namesAskedFor(askedFor, toolWords(tool)),
              splitPart: deps.part === true,
            }),
          },
        ]
      : [];
  });
}

/** Answers one intent: route, fill, then run, ask, or answer needs_input or no_match. */
export async function answerOne(
  request: RouteAndExecuteRequest,
  deps: AnswerDeps,
): Promise<RouteAndExecuteResponse> {
  const supplied = request.arguments ?? {};
  const opaque = findOpaqueValues(request.query);
  const query = routingQuery(request.query, supplied);
  // Routed at the catalog's calibrated threshold; the caller's own threshold is applied below, so that
  // what the calibrated one would run is known too.
  const routed = await deps.route({
    query,
    topK: CANDIDATES,
    ...(request.categories ? { categories: request.categories } : {}),
  });
  const calibrated = routed.threshold;
  const threshold = request.threshold ?? calibrated;
  const askedFor = askedForWords(request.query);
  const cues = requestCues(request.query, askedFor);
  const hits = filledHits(request, deps, routed, askedFor);
  // Each candidate is held to the bar the best one is (the ranking is by score).
  const weighAt = (bar: number) =>
    hits.map((hit) => {
      const candidate = weigh(hit.tool, hit.score, hit.score >= bar, bar, hit.fill, supplied);
      candidate.named = namedInRequest(hit.tool, request.query);
      const reason = candidate.eligible ? setAsideFor(hit.tool, hit.fill, cues) : undefined;
      if (reason) {
        candidate.eligible = false;
        candidate.evidence.push(reason);
      }
      return candidate;
    });
  const candidates = weighAt(threshold);
  const chosen = choose(candidates, threshold);
  if (chosen) markCallSignals(chosen, candidates, threshold, request.query);
  const steps: Step[] = [
    {
      step: "route",
      matched: Boolean(chosen),
      threshold,
      ...(query !== request.query
        ? { routedText: query, opaque: opaque.map((o) => ({ kind: o.kind, start: o.start, end: o.end })) }
        : {}),
      candidates: candidates.map((c) => ({
        name: c.tool.name,
        score: c.score,
        adjusted: Math.round(c.adjusted * 1e4) / 1e4,
        why: c.evidence,
      })),
    },
  ];
  if (!chosen) {
    // A caller's threshold raises the bar for running a tool, not for writing one: synthesis runs only when
    // nothing would run at the catalog's own threshold.
    const atCalibrated = threshold > calibrated ? choose(weighAt(calibrated), calibrated) : undefined;
    if (!atCalibrated) return deps.noMatch(request, steps);
    steps.push({
      step: "synthesize",
      ok: false,
      skipped: "matched",
      detail: `no tool was written: ${atCalibrated.tool.name} matches at the catalog's calibrated threshold ${calibrated}; the request's threshold ${threshold} only raises the bar for running it`,
    });
    return { status: "no_match", steps };
  }
  const { tool } = chosen;
  const { fill, doubts, llmProblem } = await settleDoubts(
    request.query,
    tool,
    chosen.fill,
    supplied,
    deps.llm,
  );
  steps.push({
    step: "arguments",
    tool: tool.name,
    filled: fill.filled,
    ...(llmProblem ? { llmProblem } : {}),
    confidence: fill.confidence,
    bar: fill.bar,
    ...(fill.doubts.length > 0 ? { doubts: fill.doubts } : {}),
    ...(fill.signals.length > 0 ? { signals: fill.signals } : {}),
    ready: fill.missing.length === 0 && failedQueryValues(tool, fill).length === 0,
  });
  // A value the agent sent that the schema refuses is the agent's to fix: the validate step names it.
  const agentFields = new Set(Object.keys(supplied));
  const agentIssues = validateAgainstSchema(tool.inputSchema, fill.arguments).filter((i) =>
    agentFields.has(i.path.split(".")[0] ?? ""),
  );
  if (agentIssues.length > 0) return deps.run(tool, fill.arguments, steps);
  let missing = doubts;
  if (missing.length > 0 && deps.ask) {
    const asked = await askForMissing(tool, fill.arguments, missing, deps.ask, steps);
    if ("arguments" in asked) return deps.run(tool, asked.arguments, steps);
    missing = asked.missing;
  }
  if (missing.length > 0)
    return {
      status: "needs_input",
      tool: tool.name,
      missing,
      question: questionFor(tool.name, missing),
      ...(fill.suggested.length > 0 ? { suggested: fill.suggested, confidence: fill.confidence } : {}),
      steps,
    };
  return deps.run(tool, fill.arguments, steps);
}
