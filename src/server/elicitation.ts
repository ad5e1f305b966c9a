// MCP elicitation as route-and-execute's way to ask the user for a missing value: the missing fields'
// JSON Schemas become the flat form of primitive fields that elicitation allows (a field it cannot
// express, such as an array or an object, means not asking at all), and the client's answer comes back to
// the app unchecked but for its shape: the app checks the values against the tool's schema.
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  ElicitRequestFormParams,
  PrimitiveSchemaDefinition,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type AskUser, type InputRequest, MAX_ANSWER_CHARS } from "../app/index.ts";

/** Long enough for a person to read the question, look something up and answer. */
export const ELICITATION_TIMEOUT_MS = 10 * 60_000;
const STRING_FORMATS = new Set(["email", "uri", "date", "date-time"]);
const MAX_DETAIL_CHARS = 200;

type JsonSchema = Record<string, unknown>;
type RequestedSchema = ElicitRequestFormParams["requestedSchema"];

/**
 * What the client answered, checked for its shape only: the content's values are the app's to judge, so
 * that a wrong one is named (the SDK's own result schema would refuse it as a whole).
 */
const answerSchema = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.preprocess(
    (value) => (value === null ? undefined : value),
    z.record(z.string(), z.unknown()).optional(),
  ),
});

/** The one JSON type of a schema, where "null" alongside one type (an optional field) does not count. */
function singleType(schema: JsonSchema): string | undefined {
  const { type } = schema;
  if (typeof type === "string") return type;
  if (!Array.isArray(type)) return undefined;
  const types = type.filter((t) => t !== "null");
  return types.length === 1 && typeof types[0] === "string" ? types[0] : undefined;
}

const numberOr = (value: unknown) => (typeof value === "number" ? value : undefined);

/** A form field for one missing value, or why a form cannot ask for it. */
function formField(field: string, schema: JsonSchema): PrimitiveSchemaDefinition | string {
  const labels = {
    title: typeof schema.title === "string" ? schema.title : field.replace(/_/g, " "),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
  };
  const type = singleType(schema);
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((option) => option !== null);
    if (options.every((option) => typeof option === "string") && (type ?? "string") === "string")
      return { type: "string", ...labels, enum: options };
    return `${field} is a choice of values other than text`;
  }
  const min = numberOr(schema.minimum);
  const max = numberOr(schema.maximum);
  switch (type) {
    case "string": {
      const minLength = numberOr(schema.minLength);
      const format =
        typeof schema.format === "string" && STRING_FORMATS.has(schema.format) ? schema.format : undefined;
      return {
        type: "string",
        ...labels,
        ...(minLength !== undefined ? { minLength } : {}),
        maxLength: Math.min(numberOr(schema.maxLength) ?? MAX_ANSWER_CHARS, MAX_ANSWER_CHARS),
        ...(format ? { format: format as "email" | "uri" | "date" | "date-time" } : {}),
      };
    }
    case "number":
    case "integer":
      return {
        type,
        ...labels,
        ...(min !== undefined ? { minimum: min } : {}),
        ...(max !== undefined ? { maximum: max } : {}),
      };
    case "boolean":
      return { type: "boolean", ...labels };
    default:
      return `${field} is ${type ? `of type ${type}` : "not of one type"}, which a form cannot ask for`;
  }
}

/**
 * The form asking for every missing value, each required (a default is what asking avoids), or why there
 * is none.
 */
export function formFor(missing: InputRequest["missing"]): RequestedSchema | string {
  const properties: RequestedSchema["properties"] = {};
  for (const { field, schema } of missing) {
    const property = formField(field, schema);
    if (typeof property === "string") return property;
    properties[field] = property;
  }
  return { type: "object", properties, required: missing.map((m) => m.field) };
}

function messageFor({ question, refused }: InputRequest): string {
  return refused ? `${question} (Your last answer was refused: ${refused.join("; ")}.)` : question;
}

const bounded = (text: string) =>
  text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;

/** Asks through the client of the tool call `extra` belongs to, on that call's stream. */
export function elicitingAsker(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): AskUser {
  return async (request) => {
    const requestedSchema = formFor(request.missing);
    if (typeof requestedSchema === "string") return { action: "not_asked", detail: requestedSchema };
    try {
      const answer = await extra.sendRequest(
        {
          method: "elicitation/create",
          params: { mode: "form", message: messageFor(request), requestedSchema },
        },
        answerSchema,
        { timeout: ELICITATION_TIMEOUT_MS, signal: extra.signal },
      );
      return answer.action === "accept"
        ? { action: "accept", content: answer.content ?? {} }
        : { action: answer.action };
    } catch (error) {
      // The tool call itself was cancelled: there is no one left to answer.
      if (extra.signal.aborted) throw error;
      return {
        action: "unanswered",
        detail: bounded(error instanceof Error ? error.message : String(error)),
      };
    }
  };
}
