// A made-up catalog's described tools and a stand-in router and runner for route-and-execute's answer: the
// router ranks the given tools at the given scores over THRESHOLD, and the runner records each call and
// answers with its arguments as the output.
import type { AnswerDeps } from "../../src/app/route-and-execute/answer.ts";
import type { RouteAndExecuteResponse, RouteResponse } from "../../src/app/types.ts";
import type { Tool } from "../../src/catalog/index.ts";

export const THRESHOLD = 0.3;

/** A described tool (one example request, so not bare: bare tools have a table of their own). */
export const describedTool = (
  name: string,
  properties: Record<string, unknown>,
  required: string[],
  exampleCalls?: unknown[],
) =>
  ({
    name,
    description: name,
    examples: [`use ${name}`],
    ...(exampleCalls ? { exampleCalls } : {}),
    inputSchema: { type: "object", properties, required },
    annotations: { readOnlyHint: true, destructiveHint: false },
  }) as unknown as Tool;

export function standInDeps(
  scores: [Tool, number][],
): AnswerDeps & { ran: { tool: string; args: unknown }[] } {
  const ran: { tool: string; args: unknown }[] = [];
  return {
    ran,
    route: async (request) =>
      ({
        query: request.query,
        matched: true,
        threshold: THRESHOLD,
        notices: [],
        tools: scores.map(([t, score]) => ({ name: t.name, score })),
      }) as unknown as RouteResponse,
    getTool: (name) => scores.find(([t]) => t.name === name)?.[0],
    run: async (t, args, steps) => {
      ran.push({ tool: t.name, args });
      return {
        status: "completed",
        tool: t.name,
        result: { output: args },
        steps: [...steps, { step: "execute", tool: t.name, arguments: args, result: { output: args } }],
      } as unknown as RouteAndExecuteResponse;
    },
    noMatch: async (_request, steps) => ({ status: "no_match", steps }) as RouteAndExecuteResponse,
  };
}
