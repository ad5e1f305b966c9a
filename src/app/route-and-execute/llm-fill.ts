// Arguments from the request by the configured LLM: structured output against the tool's schema (in
// OpenAI strict form, where "not given" is a null), the validation problems fed back once, and a null or a
// still-invalid value left out, so a required one ends as needs_input rather than a guess.
import { type Tool, validateAgainstSchema } from "../../catalog/index.ts";
import type { FilledValue, FillResult } from "../../intent/index.ts";
import { type ChatMessage, chatCompletion, type LlmConfig } from "../../llm/index.ts";
import { fromStrictArguments, providerToolName, strictSchema } from "../formats.ts";

type JsonSchema = Record<string, unknown>;

const SYSTEM = `You fill in the arguments of one tool call from a user's request.
Use only values the request states or plainly implies (a city for a time zone, "annually" for once a year).
Use null for every value the request does not give: never invent one and never use a default.
Reply with the JSON object of arguments only.`;

function parseObject(content: string): Record<string, unknown> | undefined {
  const text = content.slice(content.indexOf("{"), content.lastIndexOf("}") + 1);
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The span of the request a value was read from, when it appears there as written. */
function spanOf(query: string, value: unknown): FilledValue["span"] {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const text = String(value);
  const start = query.toLowerCase().indexOf(text.toLowerCase());
  return start < 0 || text === ""
    ? undefined
    : { start, end: start + text.length, text: query.slice(start, start + text.length) };
}

/**
 * Fills the `open` fields of `tool`'s arguments with the LLM: those the offline extraction missed or was
 * unsure of. Its other values stand, and the agent's always win; an open field the LLM leaves null is
 * left out, so a required one is asked for.
 */
export async function fillWithLlm(
  query: string,
  tool: Tool,
  offline: FillResult,
  supplied: Record<string, unknown>,
  llm: LlmConfig,
  open: ReadonlySet<string>,
): Promise<FillResult> {
  const settled = Object.fromEntries(
    Object.entries(offline.arguments).filter(([field]) => !open.has(field) && !(field in supplied)),
  );
  const schema = tool.inputSchema as JsonSchema;
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM },
    {
      role: "user",
      content: [
        `Tool: ${tool.name}: ${tool.description}`,
        `Request: ${query}`,
        ...(Object.keys(supplied).length > 0
          ? [`Already given by the caller: ${JSON.stringify(supplied)}`]
          : []),
        ...(Object.keys(settled).length > 0
          ? [`Already read from the request: ${JSON.stringify(settled)}`]
          : []),
      ].join("\n"),
    },
  ];
  const format = {
    response_format: {
      type: "json_schema",
      json_schema: {
        name: providerToolName(`${tool.name}_arguments`),
        schema: strictSchema(schema),
        strict: true,
      },
    },
  };
  let proposed: Record<string, unknown> = {};
  for (let attempt = 1; attempt <= 2; attempt++) {
    const content = await chatCompletion(llm, messages, { extra: format });
    messages.push({ role: "assistant", content });
    const parsed = parseObject(content);
    proposed = parsed ? (fromStrictArguments(schema, parsed) as Record<string, unknown>) : {};
    // Nulls for required fields mean "not given": they are left out, to be asked for; so are keys the
    // schema does not have.
    // So are keys outside the open fields: what the offline extraction read surely stands.
    const known = (schema.properties ?? {}) as JsonSchema;
    for (const [key, value] of Object.entries(proposed))
      if (value === null || !(key in known) || !open.has(key) || key in supplied) delete proposed[key];
    const issues = validateAgainstSchema(schema, { ...settled, ...proposed, ...supplied }).filter(
      (issue) => issue.message !== "is required",
    );
    if (parsed && issues.length === 0) break;
    if (attempt === 2) {
      for (const issue of issues) delete proposed[issue.path.split(".")[0] ?? ""];
      break;
    }
    messages.push({
      role: "user",
      content: parsed
        ? `These arguments do not fit the schema: ${JSON.stringify(issues)}. Reply with the corrected JSON object.`
        : "That reply is not one JSON object. Reply with the JSON object of arguments only.",
    });
  }
  const args: Record<string, unknown> = { ...settled, ...proposed, ...supplied };
  const filled: FilledValue[] = Object.entries(args).map(([field, value]) => {
    if (field in supplied) return { field, value, source: "agent" };
    if (field in proposed) {
      const span = spanOf(query, value);
      return { field, value, source: "llm", how: "LLM structured output", ...(span ? { span } : {}) };
    }
    return offline.filled.find((v) => v.field === field) ?? { field, value, source: "query" };
  });
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const missing = [
    ...offline.missing.filter((m) => !(m.field in args) || m.reason.startsWith("no time zone")),
    ...required
      .filter((field) => !(field in args) && !offline.missing.some((m) => m.field === field))
      .map((field) => ({
        field,
        schema: ((schema.properties ?? {}) as Record<string, JsonSchema>)[field] ?? {},
        reason: "the request does not say",
      })),
  ];
  // The LLM's values passed the schema: the call is as sure as the configured model, not the offline reader.
  const suggested = filled.filter((v) => v.source !== "agent");
  // It read the whole request, so no stated value is left for the offline reader's signals to count.
  return {
    arguments: args,
    filled,
    missing,
    placedOpaque: offline.placedOpaque,
    confidence: 1,
    bar: offline.bar,
    doubts: [],
    suggested,
    signals: [],
    unused: [],
  };
}
