// Request bodies as JSON: an empty body is no body (the route decides whether it needs one), and a
// malformed one is one 400 naming what the parser expected and where.
import { type ParseError, parse as parseTolerantly, printParseErrorCode } from "jsonc-parser";
import secureJson from "secure-json-parse";
import { HttpError } from "./problems.ts";

export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    // __proto__ and constructor.prototype keys are refused, as by Fastify's own parser.
    return secureJson.parse(text, { protoAction: "error", constructorAction: "error" });
  } catch (error) {
    throw new HttpError(400, "malformed_json", `the body is not valid JSON: ${problemIn(text, error)}`);
  }
}

/**
 * What is wrong and where. V8's message gives no position for an unexpected token, so the first error of a
 * parser that reports offsets (jsonc-parser, in strict JSON mode) names it; the refusal of a prototype key,
 * which is valid JSON, keeps its own words.
 */
function problemIn(text: string, error: unknown): string {
  const errors: ParseError[] = [];
  parseTolerantly(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first)
    return /prototype/.test(String(error))
      ? "a __proto__ or constructor.prototype key is refused"
      : String(error);
  const what = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  const before = text.slice(0, first.offset);
  const line = before.split("\n").length;
  const column = first.offset - before.lastIndexOf("\n");
  return `${what} at position ${first.offset} (line ${line}, column ${column})`;
}
