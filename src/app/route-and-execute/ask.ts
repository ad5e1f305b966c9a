// Asking the user for the values a request lacks, through the caller's AskUser (MCP elicitation), before
// answering needs_input. An answer is untrusted input: only the fields asked for are taken, each checked
// against the tool's schema as the dispatcher checks it; a refused answer changes nothing and is asked
// again once, naming what was wrong.
import { type Tool, validateAgainstSchema } from "../../catalog/index.ts";
import { type MissingField, questionFor } from "../../intent/index.ts";
import type { AskUser, InputAnswer, Step } from "../types.ts";

/** One question, and one more if the first answer was refused. */
const MAX_ASKS = 2;
/** A value a person types; anything longer is refused before the schema sees it. */
export const MAX_ANSWER_CHARS = 4096;

/** Names the client made up are echoed in the answer: a few, each cut short. */
const MAX_NAMED = 5;
const quoted = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

export type Asked = { arguments: Record<string, unknown> } | { missing: MissingField[] };

const WHY_NOT_GIVEN: Record<Exclude<InputAnswer["action"], "accept" | "not_asked">, string> = {
  decline: "the user declined to give it",
  cancel: "the user dismissed the question",
  unanswered: "the user's client did not answer",
};

interface Checked {
  arguments: Record<string, unknown>;
  /** By field; "" for what concerns the answer as a whole (a field that was not asked for). */
  problems: Map<string, string>;
}

/** The answer's values for the asked fields merged into `args`, or what is wrong with it. */
function checkAnswer(
  tool: Tool,
  args: Record<string, unknown>,
  asked: MissingField[],
  content: Record<string, unknown>,
): Checked {
  const fields = new Set(asked.map((m) => m.field));
  const problems = new Map<string, string>();
  const extra = Object.keys(content).filter((key) => !fields.has(key));
  if (extra.length > 0) {
    const named = extra.slice(0, MAX_NAMED).map(quoted).join(", ");
    const more = extra.length > MAX_NAMED ? ` and ${extra.length - MAX_NAMED} more` : "";
    problems.set("", `the answer holds ${named}${more}, which was not asked for`);
  }
  const merged = { ...args };
  for (const field of fields) {
    const value = Object.hasOwn(content, field) ? content[field] : undefined;
    if (value === undefined) problems.set(field, `${field} was not given`);
    else if (typeof value === "string" && value.length > MAX_ANSWER_CHARS)
      problems.set(field, `${field} is ${value.length} characters long, more than ${MAX_ANSWER_CHARS}`);
    else merged[field] = value;
  }
  if (problems.size > 0) return { arguments: args, problems };
  for (const issue of validateAgainstSchema(tool.inputSchema, merged)) {
    const field = issue.path.split(".")[0] ?? "";
    if (fields.has(field) && !problems.has(field)) problems.set(field, `${issue.path} ${issue.message}`);
  }
  return { arguments: problems.size > 0 ? args : merged, problems };
}

/** The fields still missing, each saying why: its own problem, or what was wrong with the whole answer. */
function stillMissing(asked: MissingField[], problems: Map<string, string>): MissingField[] {
  const whole = problems.get("");
  return asked.map((m) => ({
    ...m,
    reason: problems.get(m.field) ?? (whole ? `the answer was refused: ${whole}` : m.reason),
  }));
}

/**
 * Asks for `missing` (at most twice) and returns the arguments to run with, or the fields still missing.
 * Each question and its outcome is a step.
 */
export async function askForMissing(
  tool: Tool,
  args: Record<string, unknown>,
  missing: MissingField[],
  ask: AskUser,
  steps: Step[],
): Promise<Asked> {
  let asked = missing;
  let refused: string[] | undefined;
  for (let round = 0; round < MAX_ASKS; round++) {
    const answer = await ask({
      tool: tool.name,
      missing: asked,
      question: questionFor(tool.name, asked),
      ...(refused ? { refused } : {}),
    });
    const step: Extract<Step, { step: "elicit" }> = {
      step: "elicit",
      tool: tool.name,
      fields: asked.map((m) => m.field),
      action: answer.action,
    };
    steps.push(step);
    if (answer.action === "unanswered" || answer.action === "not_asked") step.detail = answer.detail;
    // Not asked: the fields stay as the extraction left them, the answer is today's needs_input.
    if (answer.action === "not_asked") return { missing: asked };
    if (answer.action !== "accept") {
      const reason = WHY_NOT_GIVEN[answer.action];
      return { missing: asked.map((m) => ({ ...m, reason })) };
    }
    const checked = checkAnswer(tool, args, asked, answer.content);
    if (checked.problems.size === 0) return { arguments: checked.arguments };
    refused = [...checked.problems.values()];
    step.problems = refused;
    asked = stillMissing(asked, checked.problems);
  }
  return { missing: asked };
}
