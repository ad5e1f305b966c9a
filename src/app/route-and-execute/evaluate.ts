// Judging route-and-execute answers against labelled agent requests (catalog/eval/requests-*.jsonl):
// correct means the expected status, tool and answer; silently wrong means "completed" when it should not
// have been (a wrong tool or answer, or an answer where asking or declining was right).
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { RouteAndExecuteResponse } from "../types.ts";

export const REQUEST_KINDS = ["self_contained", "arguments", "missing", "no_tool", "multi_intent"] as const;

const expectedCall = z.strictObject({
  tool: z.string().min(1),
  output: z.record(z.string(), z.unknown()).optional(),
});

export const labelledRequestSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.enum(REQUEST_KINDS),
  query: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  expect: z.strictObject({
    status: z.enum(["completed", "needs_input", "no_match"]),
    tool: z.string().min(1).optional(),
    output: z.record(z.string(), z.unknown()).optional(),
    intents: z.array(expectedCall).min(2).optional(),
  }),
});

export type LabelledRequest = z.infer<typeof labelledRequestSchema>;

export async function readLabelledRequests(path: string): Promise<LabelledRequest[]> {
  const lines = (await readFile(path, "utf8")).split("\n");
  return lines.flatMap((line, i) => {
    if (line.trim() === "") return [];
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${path}:${i + 1}: not JSON: ${(error as Error).message}`);
    }
    const parsed = labelledRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${path}:${i + 1}: ${issue?.path.join(".") || "(line)"} ${issue?.message}`);
    }
    return [parsed.data];
  });
}

/** Numbers equal to 1e-6 relative (tools round), objects by the expected fields only. */
export function containsExpected(actual: unknown, expected: unknown): boolean {
  if (typeof expected === "number")
    return (
      typeof actual === "number" && Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected))
    );
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => containsExpected(actual[i], e))
    );
  if (expected && typeof expected === "object")
    return (
      !!actual &&
      typeof actual === "object" &&
      Object.entries(expected).every(([k, v]) => containsExpected((actual as Record<string, unknown>)[k], v))
    );
  return actual === expected;
}

function callMatches(
  answer: RouteAndExecuteResponse,
  tool: string | undefined,
  output: Record<string, unknown> | undefined,
): boolean {
  if (tool !== undefined && answer.tool !== tool) return false;
  return output === undefined || containsExpected(answer.result?.output, output);
}

export interface Verdict {
  correct: boolean;
  silentlyWrong: boolean;
}

export function judge(request: LabelledRequest, answer: RouteAndExecuteResponse): Verdict {
  const { expect } = request;
  let correct = answer.status === expect.status;
  if (correct && expect.intents) {
    const intents = answer.intents ?? [];
    correct =
      intents.length === expect.intents.length &&
      expect.intents.every((e, i) => {
        const got = intents[i];
        return got !== undefined && got.status === "completed" && callMatches(got, e.tool, e.output);
      });
  } else if (correct) correct = callMatches(answer, expect.tool, expect.output);
  return { correct, silentlyWrong: !correct && answer.status === "completed" };
}

export interface KindReport {
  requests: number;
  correct: number;
  silentlyWrong: number;
  correctRate: number;
  silentlyWrongRate: number;
}

function report(verdicts: Verdict[]): KindReport {
  const correct = verdicts.filter((v) => v.correct).length;
  const silentlyWrong = verdicts.filter((v) => v.silentlyWrong).length;
  const n = verdicts.length;
  const rate = (x: number) => (n === 0 ? 0 : Math.round((x / n) * 1e4) / 1e4);
  return {
    requests: n,
    correct,
    silentlyWrong,
    correctRate: rate(correct),
    silentlyWrongRate: rate(silentlyWrong),
  };
}

export function summarise(judged: { request: LabelledRequest; verdict: Verdict }[]) {
  const byKind: Record<string, KindReport> = {};
  for (const kind of REQUEST_KINDS) {
    const of = judged.filter((j) => j.request.kind === kind);
    if (of.length > 0) byKind[kind] = report(of.map((j) => j.verdict));
  }
  return {
    overall: report(judged.map((j) => j.verdict)),
    excludingMultiIntent: report(
      judged.filter((j) => j.request.kind !== "multi_intent").map((j) => j.verdict),
    ),
    byKind,
  };
}
