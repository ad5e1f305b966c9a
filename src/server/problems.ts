// One JSON error shape for every failure: { error: { code, message, issues? } }, where the message names
// the problem and, for bad bodies, every field path.
import type { FastifyError } from "fastify";
import type { z } from "zod";
import { AppError } from "../app/index.ts";
import type { SchemaIssue } from "../catalog/index.ts";
import { AuthError } from "./auth.ts";

/** The longest path parameter routed: MCP's tool-name limit. */
export const MAX_PARAM_LENGTH = 128;

export interface ErrorBody {
  error: { code: string; message: string; issues?: SchemaIssue[] };
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly issues?: SchemaIssue[];
  /** Headers the answer carries, e.g. Retry-After. */
  readonly headers: Record<string, string>;
  constructor(
    statusCode: number,
    code: string,
    message: string,
    issues?: SchemaIssue[],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.statusCode = statusCode;
    this.code = code;
    if (issues) this.issues = issues;
    this.headers = headers;
  }
}

export function zodIssues(error: z.ZodError, root: string): SchemaIssue[] {
  return error.issues.map((issue) => {
    const path = [root, ...issue.path.map(String)].join(".");
    if (issue.code === "unrecognized_keys")
      return { path, message: `unknown field(s): ${issue.keys.map((k) => `"${k}"`).join(", ")}` };
    return { path, message: issue.message };
  });
}

/** How deep a request body may nest: deeper answers echoed it back past JSON.stringify's stack (a 500). */
export const MAX_BODY_DEPTH = 64;

/** The path of the first value nested deeper than MAX_BODY_DEPTH, or undefined; a loop, not recursion. */
function tooDeep(value: unknown, root: string): string | undefined {
  const stack: [unknown, string, number][] = [[value, root, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, path, depth] = next;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) return path;
    for (const [key, child] of Object.entries(node)) stack.push([child, `${path}.${key}`, depth + 1]);
  }
  return undefined;
}

export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, root: string): z.infer<S> {
  const deep = tooDeep(value, root);
  if (deep !== undefined) {
    const shown = deep.length > 120 ? `${deep.slice(0, 120)}…` : deep;
    throw new HttpError(
      400,
      "invalid_request",
      `invalid ${root}: ${shown}: nested deeper than ${MAX_BODY_DEPTH} levels`,
      [{ path: shown, message: `nested deeper than ${MAX_BODY_DEPTH} levels` }],
    );
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error, root);
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  throw new HttpError(400, "invalid_request", `invalid ${root}: ${summary}`, issues);
}

const APP_STATUS = {
  not_found: 404,
  conflict: 409,
  invalid: 422,
  unavailable: 503,
  store_unavailable: 503,
  session_unavailable: 503,
} as const;

const FASTIFY_CODES: Record<string, { status: number; code: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "body_too_large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: "unsupported_media_type",
    message: "send the body as Content-Type: application/json",
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: "bad_url",
    message: "the URL's path is not valid percent-encoded UTF-8",
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: "uri_too_long",
    message: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters (a tool name has at most ${MAX_PARAM_LENGTH})`,
  },
};

export interface Problem {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

export function toProblem(error: unknown, bodyLimit: number): Problem {
  if (error instanceof HttpError)
    return {
      status: error.statusCode,
      body: problem(error.code, error.message, error.issues),
      headers: error.headers,
    };
  if (error instanceof AuthError)
    return error.statusCode === 401
      ? {
          status: 401,
          body: problem("unauthorized", error.message),
          headers: { "www-authenticate": error.challenge },
        }
      : { status: 403, body: problem("forbidden", error.message) };
  if (error instanceof AppError)
    return { status: APP_STATUS[error.code], body: problem(error.code, error.message, error.issues) };
  const fastify = error as FastifyError;
  const known = fastify.code ? FASTIFY_CODES[fastify.code] : undefined;
  if (known) {
    const message =
      fastify.code === "FST_ERR_CTP_BODY_TOO_LARGE"
        ? `the request body is larger than the limit of ${bodyLimit} bytes`
        : (known.message ?? fastify.message);
    return { status: known.status, body: problem(known.code, message) };
  }
  if (fastify.statusCode === 429) return { status: 429, body: problem("rate_limited", fastify.message) };
  if (typeof fastify.statusCode === "number" && fastify.statusCode >= 400 && fastify.statusCode < 500)
    return { status: fastify.statusCode, body: problem("bad_request", fastify.message) };
  return { status: 500, body: problem("internal", "internal error; the request id is in the logs") };
}

export function problem(code: string, message: string, issues?: SchemaIssue[]): ErrorBody {
  return { error: issues ? { code, message, issues } : { code, message } };
}

const CLIENT_ERRORS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    "Request Header Fields Too Large",
    "headers_too_large",
    "the request line and headers are larger than the server accepts",
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    "Request Timeout",
    "request_timeout",
    "the request was not received in time",
  ],
};

/** The raw HTTP answer to a request Node's parser refused, in the error shape. */
export function clientErrorAnswer(nodeCode: string | undefined): string {
  const [status, reason, code, message] = CLIENT_ERRORS[nodeCode ?? ""] ?? [
    400,
    "Bad Request",
    "bad_request",
    "the request is not valid HTTP",
  ];
  const body = JSON.stringify(problem(code, message));
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
