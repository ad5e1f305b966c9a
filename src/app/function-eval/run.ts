// Runs BFCL-format function-calling questions through route-and-execute, offline and without an LLM. All
// questions' functions go into one catalog, each function a tool whose category is its question's id, so
// one index is built once and each question is routed among its own functions only (the route request's
// `categories`). Every tool is bound to a local stand-in that records the call and runs nothing.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Tool, toolsFromFunctions } from "../../catalog/index.ts";
import type { Logger } from "../../config/index.ts";
import type { Doubt, Evidence } from "../../intent/index.ts";
import type { SwitchboardOptions } from "../config.ts";
import { openSwitchboard } from "../switchboard.ts";
import { AppError, type RouteAndExecuteResponse } from "../types.ts";
import { callsMatch, type MadeCall, matchesAny } from "./ast-match.ts";
import { type LoadedQuestion, readFunctionQuestions } from "./files.ts";
import { CallRecorder, type RecordedCall } from "./stand-in.ts";

type Schema = Record<string, unknown>;

interface CatalogEntry {
  question: string;
  /** The function's own name, as the ground truth names it. */
  function: string;
  schema: Schema;
}

/** The whole catalog: tool names made unique across questions (a later same name gets a suffix). */
function buildCatalog(questions: LoadedQuestion[], recorder: CallRecorder) {
  const tools: Tool[] = [];
  const entries = new Map<string, CatalogEntry>();
  let warnings = 0;
  for (const question of questions) {
    const imported = toolsFromFunctions(
      question.functions.map((entry, i) => ({ entry, where: `${question.where}: function[${i}]` })),
    );
    warnings += imported.warnings.length;
    const originals = question.functions.map((f) => (f as { name?: string }).name ?? "");
    for (const [i, tool] of imported.tools.entries()) {
      let name = tool.name;
      for (let n = 2; entries.has(name); n++) name = `${tool.name}_${n}`;
      const original = originals.find((o) => o === tool.name) ?? originals[i] ?? tool.name;
      entries.set(name, { question: question.id, function: original, schema: tool.inputSchema as Schema });
      tools.push({
        ...tool,
        name,
        category: question.id,
        binding: { type: "http", method: "POST", url: recorder.urlFor(name), bodyFrom: "arguments" },
      });
    }
  }
  return { tools, entries, warnings };
}

export interface QuestionOutcome {
  id: string;
  category: string;
  status: RouteAndExecuteResponse["status"] | "refused";
  /** Functions the answer named (completed, failed, needs_input or invalid arguments), by their own names. */
  named: string[];
  /** Calls the answer says ran. */
  calls: MadeCall[];
  /** Calls the stand-in received. */
  received: MadeCall[];
  toolRight: boolean | undefined;
  fullCallRight: boolean | undefined;
  completedWrongCall: boolean;
  executed: boolean;
  /** A call ran that the answer does not show, or one ran twice. */
  hiddenOrRepeated: boolean;
  expectsCall: boolean;
  refused?: string;
  /** The route step of a one-intent answer: the threshold and each candidate's score and reasons. */
  route?: { threshold: number; candidates: { name: string; score: number; why?: string[] }[] };
  /**
   * Each call of the answer (one per part) whose every value was at hand (run, or held under the confidence
   * bar): the kinds of evidence its values rest on, and whether that call is right. What the confidence fit
   * labels.
   */
  proposed?: {
    evidence: Evidence[];
    doubts: Doubt[];
    right: boolean;
    /** The call itself, by its function's own name. */
    call: MadeCall;
    /** The router's score of its first candidate and how far the second is below it (1 when alone). */
    margin: number;
    score: number;
  }[];
}

function partsOf(answer: RouteAndExecuteResponse): RouteAndExecuteResponse[] {
  return answer.intents ?? [answer];
}

const NAMES_A_TOOL = new Set(["completed", "failed", "needs_input", "invalid_arguments"]);

const key = (call: MadeCall) => `${call.name}\u0000${JSON.stringify(call.arguments)}`;

function sameCalls(a: MadeCall[], b: MadeCall[]): boolean {
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((k, i) => k === right[i]);
}

const schemaIndex = new WeakMap<Map<string, CatalogEntry>, Map<string, Map<string, Schema>>>();

/** One question's functions by their own names. */
function schemasOf(question: string, entries: Map<string, CatalogEntry>): Map<string, Schema> {
  let index = schemaIndex.get(entries);
  if (!index) {
    index = new Map();
    for (const entry of entries.values()) {
      const own = index.get(entry.question) ?? new Map<string, Schema>();
      own.set(entry.function, entry.schema);
      index.set(entry.question, own);
    }
    schemaIndex.set(entries, index);
  }
  return index.get(question) ?? new Map();
}

function judge(
  question: LoadedQuestion,
  answer: RouteAndExecuteResponse,
  received: RecordedCall[],
  entries: Map<string, CatalogEntry>,
): QuestionOutcome {
  const own = (name: string) => entries.get(name)?.function ?? name;
  const calls: MadeCall[] = [];
  const named: string[] = [];
  for (const part of partsOf(answer))
    if (part.tool && NAMES_A_TOOL.has(part.status)) named.push(own(part.tool));
  // What the answer says ran: its list of calls.
  for (const c of answer.calls ?? []) calls.push({ name: own(c.tool), arguments: c.arguments });
  const madeReceived = received.map((r) => ({ name: own(r.tool), arguments: r.arguments }));
  const schemaOf = (name: string) => schemasOf(question.id, entries).get(name);
  const truth = question.groundTruth;
  const expectsCall = truth !== undefined && truth.length > 0;
  const truthNames = new Set(truth?.flatMap((call) => Object.keys(call)) ?? []);
  const namedSet = new Set(named);
  return {
    id: question.id,
    category: question.category,
    status: answer.status,
    named,
    calls,
    received: madeReceived,
    toolRight: expectsCall
      ? namedSet.size === truthNames.size && [...truthNames].every((n) => namedSet.has(n))
      : undefined,
    fullCallRight: expectsCall ? calls.length > 0 && callsMatch(calls, truth, schemaOf) : undefined,
    completedWrongCall: expectsCall && calls.some((c) => !matchesAny(c, truth, schemaOf(c.name))),
    executed: madeReceived.length > 0,
    hiddenOrRepeated:
      !sameCalls(calls, madeReceived) || new Set(madeReceived.map(key)).size < madeReceived.length,
    expectsCall,
    ...routeOf(answer, own),
    ...proposedCalls(answer, own, truth, schemaOf),
  };
}

function routeOf(
  answer: RouteAndExecuteResponse,
  own: (name: string) => string,
): Pick<QuestionOutcome, "route"> {
  const step = answer.steps.find((s) => s.step === "route");
  if (step?.step !== "route") return {};
  return {
    route: {
      threshold: step.threshold,
      candidates: step.candidates.map((c) => ({
        name: own(c.name),
        score: c.score,
        ...(c.why ? { why: c.why } : {}),
      })),
    },
  };
}

/** The calls an answer had every value for, one per part, whether they ran or were held under the bar. */
function proposedCalls(
  answer: RouteAndExecuteResponse,
  own: (name: string) => string,
  truth: LoadedQuestion["groundTruth"],
  schemaOf: (name: string) => Schema | undefined,
): Pick<QuestionOutcome, "proposed"> {
  const proposed = partsOf(answer).flatMap((part) => {
    const step = part.steps.find((s) => s.step === "arguments");
    if (step?.step !== "arguments" || !step.ready) return [];
    const fromQuery = step.filled.filter((v) => v.source === "query");
    if (fromQuery.length === 0) return [];
    const call = {
      name: own(step.tool),
      arguments: Object.fromEntries(step.filled.map((v) => [v.field, v.value])),
    };
    // Right when it is one of the ground truth's calls: on a question of several calls, one right call is
    // no wrong call (as `completedWrongCall` counts).
    const right = truth !== undefined && truth.length > 0 && matchesAny(call, truth, schemaOf(call.name));
    const route = part.steps.find((s) => s.step === "route");
    const scores = route?.step === "route" ? route.candidates.map((c) => c.score) : [];
    return [
      {
        evidence: fromQuery.map((v) => v.evidence ?? "order"),
        doubts: step.doubts ?? [],
        right,
        call,
        margin: scores.length > 1 ? (scores[0] ?? 0) - (scores[1] ?? 0) : 1,
        score: scores[0] ?? 0,
      },
    ];
  });
  return proposed.length > 0 ? { proposed } : {};
}

export interface CategoryReport {
  questions: number;
  /** Questions with a ground-truth call (the rest expect none: irrelevance). */
  withCalls: number;
  toolRight: number;
  fullCallRight: number;
  completedWrongCall: number;
  /** Questions that expect no call on which a call ran. */
  executedOnIrrelevant: number;
  needsInput: number;
  noMatch: number;
  hiddenOrRepeated: number;
  refused: number;
  rates: Record<string, number>;
}

function report(outcomes: QuestionOutcome[]): CategoryReport {
  const count = (test: (o: QuestionOutcome) => boolean) => outcomes.filter(test).length;
  const withCalls = count((o) => o.expectsCall);
  const irrelevant = outcomes.length - withCalls;
  const r: Omit<CategoryReport, "rates"> = {
    questions: outcomes.length,
    withCalls,
    toolRight: count((o) => o.toolRight === true),
    fullCallRight: count((o) => o.fullCallRight === true),
    completedWrongCall: count((o) => o.completedWrongCall),
    executedOnIrrelevant: count((o) => !o.expectsCall && o.executed),
    needsInput: count((o) => o.status === "needs_input"),
    noMatch: count((o) => o.status === "no_match"),
    hiddenOrRepeated: count((o) => o.hiddenOrRepeated),
    refused: count((o) => o.status === "refused"),
  };
  const rate = (x: number, n: number) => (n === 0 ? 0 : Math.round((x / n) * 1e4) / 1e4);
  return {
    ...r,
    rates: {
      toolRight: rate(r.toolRight, withCalls),
      fullCallRight: rate(r.fullCallRight, withCalls),
      completedWrongCall: rate(r.completedWrongCall, withCalls),
      executedOnIrrelevant: rate(r.executedOnIrrelevant, irrelevant),
      needsInput: rate(r.needsInput, outcomes.length),
      noMatch: rate(r.noMatch, outcomes.length),
      hiddenOrRepeated: rate(r.hiddenOrRepeated, outcomes.length),
    },
  };
}

export interface FunctionEvalReport {
  questions: number;
  tools: number;
  /** Changes the import made to the definitions (Python type names and the like); see catalog import functions. */
  importWarnings: number;
  /** Opening the service (building the index of every question's functions), then answering. */
  timing: { openMs: number; answerMs: number; perQuestionMs: number };
  byCategory: Record<string, CategoryReport>;
  overall: CategoryReport;
  outcomes: QuestionOutcome[];
}

export interface FunctionEvalOptions {
  /** The embedder (and other settings) as the service is configured; catalog, data, LLM and stores are the evaluation's own. */
  settings?: Pick<SwitchboardOptions, "embedder">;
  logger?: Logger;
  onQuestion?: (done: number, total: number) => void;
}

/** Evaluates the questions of BFCL-format `files` (see files.ts) against route-and-execute. */
export async function evaluateFunctions(
  files: string[],
  options: FunctionEvalOptions = {},
): Promise<FunctionEvalReport> {
  const questions = (await Promise.all(files.map(readFunctionQuestions))).flat();
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) throw new Error(`${q.where}: the id "${q.id}" is in two files`);
    ids.add(q.id);
  }
  const recorder = await CallRecorder.start();
  const dir = await mkdtemp(join(tmpdir(), "switchboard-eval-functions-"));
  try {
    const { tools, entries, warnings } = buildCatalog(questions, recorder);
    const catalog = join(dir, "functions.json");
    await writeFile(catalog, JSON.stringify(tools));
    const opening = performance.now();
    const app = await openSwitchboard(
      { ...options.settings, catalog, data: join(dir, "data") },
      options.logger ? { logger: options.logger } : {},
    );
    const openMs = performance.now() - opening;
    const answering = performance.now();
    const outcomes: QuestionOutcome[] = [];
    try {
      for (const [i, question] of questions.entries()) {
        recorder.take();
        let answer: RouteAndExecuteResponse;
        try {
          answer = await app.routeAndExecute({ query: question.request, categories: [question.id] });
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== "invalid") throw error;
          outcomes.push({
            ...judge(question, { status: "no_match", steps: [] }, recorder.take(), entries),
            status: "refused",
            refused: error.message,
          });
          continue;
        }
        outcomes.push(judge(question, answer, recorder.take(), entries));
        options.onQuestion?.(i + 1, questions.length);
      }
    } finally {
      await app.close();
    }
    const answeredMs = performance.now() - answering;
    const byCategory: Record<string, CategoryReport> = {};
    for (const category of new Set(outcomes.map((o) => o.category)))
      byCategory[category] = report(outcomes.filter((o) => o.category === category));
    return {
      questions: questions.length,
      tools: tools.length,
      importWarnings: warnings,
      timing: {
        openMs: Math.round(openMs),
        answerMs: Math.round(answeredMs),
        perQuestionMs: Math.round((answeredMs / Math.max(1, questions.length)) * 10) / 10,
      },
      byCategory,
      overall: report(outcomes),
      outcomes,
    };
  } finally {
    await recorder.close();
    await rm(dir, { recursive: true, force: true });
  }
}
