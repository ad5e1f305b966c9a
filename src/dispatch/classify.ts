// Fail-closed error classification. Classes are data (statuses, error codes, message patterns), extended
// per tool by `policy.errors`; an error that matches nothing is "unknown" and is never retried.
import { type ErrorRules, linearRegExp, type RegExpLike } from "../catalog/index.ts";
import { DispatchError } from "./errors.ts";
import type { ErrorClass } from "./types.ts";

/** The classes a provider failure can fall in; the first three are retryable. */
export type FailureClass = "connection" | "credentials" | "rate_limit" | "fatal" | "unknown" | "timeout";

export interface Classified {
  class: ErrorClass;
  /** From a Retry-After header, in milliseconds, when the error carried one. */
  retryAfterMs?: number;
}

type RuleList = readonly (string | number)[];

interface CompiledRules {
  statuses: Map<number, FailureClass>;
  codes: Map<string, FailureClass>;
  patterns: [RegExpLike, FailureClass][];
}

const ruleClasses = [
  ["credentials", "credentials"],
  ["rateLimit", "rate_limit"],
  ["connection", "connection"],
  ["fatal", "fatal"],
] as const;

// Order matters: the first class whose rule matches wins. The defaults are statuses and error codes only,
// which the transport sets (undici, node:net, a binding's HTTP status): a message is text a tool may have
// made from its caller's input, so no default reads it, and a caller cannot make a provider look
// overloaded. A tool's own `policy.errors` (catalog data its maintainer wrote) may add message patterns.
// 503 is an unavailable server, not a rate limit: it is retried on the connection schedule (a Retry-After
// it carries is still honoured), and only 429 and 529 wait twice as long.
const defaultRules: Required<ErrorRules> = {
  credentials: [401],
  rateLimit: [429, 529],
  connection: [
    500,
    502,
    503,
    504,
    "ECONNRESET",
    "EPIPE",
    "ECONNREFUSED",
    "ECONNABORTED",
    "ETIMEDOUT",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "UND_ERR_SOCKET",
    "UND_ERR_CLOSED",
    "UND_ERR_CONNECT_TIMEOUT",
    "UND_ERR_HEADERS_TIMEOUT",
    "UND_ERR_BODY_TIMEOUT",
  ],
  fatal: [
    400,
    403,
    404,
    405,
    409,
    410,
    422,
    "ENOENT",
    "EACCES",
    "EPERM",
    "ERR_INVALID_ARG_TYPE",
    "ERR_INVALID_ARG_VALUE",
  ],
};

const ERROR_CODE = /^[A-Z][A-Z0-9_]+$/;

function safely(rule: string): RegExpLike | undefined {
  try {
    return linearRegExp(rule, "i");
  } catch {
    return undefined;
  }
}

function compile(rules: ErrorRules): CompiledRules {
  const compiled: CompiledRules = { statuses: new Map(), codes: new Map(), patterns: [] };
  for (const [key, cls] of ruleClasses) {
    for (const rule of (rules[key] ?? []) as RuleList) {
      if (typeof rule === "number") compiled.statuses.has(rule) || compiled.statuses.set(rule, cls);
      else if (ERROR_CODE.test(rule)) compiled.codes.has(rule) || compiled.codes.set(rule, cls);
      // A provider's error message meets a maintainer's pattern here: linear time, so neither stalls us. A
      // pattern that could backtrack catastrophically never matches (the API refuses it).
      else {
        const pattern = safely(rule);
        if (pattern) compiled.patterns.push([pattern, cls]);
      }
    }
  }
  return compiled;
}

const compiledDefaults = compile(defaultRules);
const compiledPerTool = new WeakMap<ErrorRules, CompiledRules>();

function rulesFor(extra: ErrorRules | undefined): CompiledRules[] {
  if (!extra) return [compiledDefaults];
  let compiled = compiledPerTool.get(extra);
  if (!compiled) {
    compiled = compile(extra);
    compiledPerTool.set(extra, compiled);
  }
  return [compiled, compiledDefaults];
}

interface ErrorLike {
  status?: unknown;
  statusCode?: unknown;
  code?: unknown;
  message?: unknown;
  name?: unknown;
  headers?: unknown;
  cause?: unknown;
}

/** The error and its causes (undici wraps socket errors: TypeError "fetch failed" → cause.code). */
function chain(error: unknown): ErrorLike[] {
  const links: ErrorLike[] = [];
  let current = error;
  while (current && typeof current === "object" && links.length < 5) {
    links.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return links;
}

function matchOne(rules: CompiledRules, link: ErrorLike): FailureClass | undefined {
  const status = typeof link.status === "number" ? link.status : link.statusCode;
  if (typeof status === "number") {
    const cls = rules.statuses.get(status);
    if (cls) return cls;
  }
  if (typeof link.code === "string") {
    const cls = rules.codes.get(link.code);
    if (cls) return cls;
  }
  if (typeof link.message === "string" && link.message) {
    for (const [pattern, cls] of rules.patterns) if (pattern.test(link.message)) return cls;
  }
  return undefined;
}

export function classify(error: unknown, extra?: ErrorRules): Classified {
  // The dispatcher's own errors say their class; an "unknown" one (an MCP tool's in-band error) is
  // classified by the tool's own rules like any other error.
  if (error instanceof DispatchError && error.class !== "unknown") return { class: error.class };
  const links = chain(error);
  // The sandbox host running the call died (src/synth/sandbox.ts); not retried: the same code would
  // most likely take the next host down too.
  if (links[0]?.code === "SANDBOX_CRASHED") return { class: "sandbox_crashed" };
  // The sandbox stopped the run at the tool's timeout, the same deadline the dispatcher's own timeout
  // stage holds: whichever fires first, the call timed out. (The sandbox provider blames it on the
  // caller, so it is still neither retried nor counted against the breaker.)
  if (links[0]?.code === "SANDBOX_TIMEOUT") return { class: "timeout" };
  for (const rules of rulesFor(extra)) {
    for (const link of links) {
      const cls = matchOne(rules, link);
      if (cls) {
        const retryAfterMs = cls === "rate_limit" || cls === "connection" ? retryAfter(links) : undefined;
        return retryAfterMs === undefined ? { class: cls } : { class: cls, retryAfterMs };
      }
    }
  }
  // Programming errors thrown by the tool's own code are fatal whatever their message says.
  const name = links[0]?.name;
  if (name === "TypeError" || name === "RangeError" || name === "SyntaxError" || name === "ReferenceError")
    return { class: "fatal" };
  return { class: "unknown" };
}

/**
 * Classes that say the provider could not serve: its connection failed, it timed out, it was overloaded,
 * or it crashed. Only these count against its circuit breaker. A string set so that a class another part
 * of the service adds (the sandbox's crash class) can be named before the type knows it.
 */
const PROVIDER_FAULTS: ReadonlySet<string> = new Set([
  "connection",
  "timeout",
  "rate_limit",
  "sandbox_crashed",
]);

/**
 * Whether a failure is the provider's fault. Bad arguments, output that fails the outputSchema, errors a
 * tool throws for its input and refused credentials are the caller's (or the operator's) failures: they
 * never count against a breaker, so one caller cannot open a circuit for everyone. A 5xx no rule names
 * counts too; a tool's own rules can still class a status as fatal.
 */
export function isProviderFault(error: unknown, extra?: ErrorRules): boolean {
  const cls = classify(error, extra).class;
  if (PROVIDER_FAULTS.has(cls)) return true;
  if (cls !== "unknown") return false;
  for (const link of chain(error)) {
    const status = typeof link.status === "number" ? link.status : link.statusCode;
    if (typeof status === "number" && status >= 500 && status <= 599) return true;
  }
  return false;
}

/** Whether retrying (after the class's recovery action) can help. Everything else fails at once. */
export function isRetryable(cls: Classified["class"]): boolean {
  return cls === "connection" || cls === "timeout" || cls === "rate_limit" || cls === "credentials";
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  return undefined;
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from now; undefined when absent or bad. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function retryAfter(links: ErrorLike[]): number | undefined {
  for (const link of links) {
    const ms = parseRetryAfter(headerValue(link.headers, "retry-after"));
    if (ms !== undefined) return ms;
  }
  return undefined;
}
