// Regular expressions from tool schemas (`pattern`, `patternProperties`) run on every call's arguments, so
// they must not be able to stall the event loop: they run on RE2 (re2js, a linear-time engine without
// backtracking). RE2 lacks lookaround and backreferences; a pattern that needs them runs on JavaScript's
// engine only when safe-regex2 finds no nested quantifier, the shape that backtracks catastrophically.
// safe-regex2 only measures quantifier nesting, so overlapping alternatives (`^(?=(a|a)*$)`) still pass it:
// tools written through the API are refused every pattern RE2 cannot run (`unsafePatternIssues`).
import { RE2JS } from "re2js";
import safeRegex from "safe-regex2";
import type { SchemaIssue } from "./json-schema.ts";
import type { ErrorRules, Tool } from "./schema.ts";

/** ECMAScript's \uXXXX and \u{X…} escapes in RE2's spelling (\x{X…}); every other escape is kept as is. */
function toRe2Syntax(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char !== "\\") {
      out += char;
      continue;
    }
    const rest = pattern.slice(i + 1);
    const fixed = /^u([0-9a-fA-F]{4})/.exec(rest) ?? /^u\{([0-9a-fA-F]{1,6})\}/.exec(rest);
    if (fixed?.[1] !== undefined) {
      out += `\\x{${fixed[1]}}`;
      i += fixed[0].length;
    } else {
      out += char + (pattern[i + 1] ?? "");
      i++;
    }
  }
  return out;
}

export interface RegExpLike {
  test(input: string): boolean;
  toString(): string;
}

/** ajv's `code.regExp` engine: RE2 when it can express the pattern, else JavaScript's when it is safe. */
export function linearRegExp(pattern: string, flags: string): RegExpLike {
  try {
    const compiled = RE2JS.compile(toRe2Syntax(pattern), flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0);
    // ajv keys its compiled patterns by toString(): each pattern needs its own.
    return { test: (input) => compiled.matcher(input).find(), toString: () => `re2:/${pattern}/${flags}` };
  } catch {
    if (!safeRegex(pattern)) {
      throw new Error(
        `the pattern ${JSON.stringify(pattern)} uses lookaround or backreferences and nests quantifiers, so it could backtrack catastrophically`,
      );
    }
    return new RegExp(pattern, flags);
  }
}
// ajv's RegExpEngine type asks for the source that recreates it in standalone code, which is not used here.
linearRegExp.code = "linearRegExp";

/** Keywords whose values are data, not schemas: a "pattern" or "uniqueItems" key inside them is no keyword. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  "const",
  "enum",
  "default",
  "examples",
  "example",
]);

/** Whether RE2 runs the pattern, in linear time. */
function isLinear(pattern: string): boolean {
  try {
    RE2JS.compile(toRe2Syntax(pattern));
    return true;
  } catch {
    return false;
  }
}

/** Why a pattern from the API may not run: it backtracks catastrophically, or only a backtracking engine runs it. */
function patternProblem(pattern: string): string | undefined {
  if (!safeRegex(pattern)) return unsafeMessage(pattern);
  if (!isLinear(pattern))
    return `the pattern ${JSON.stringify(pattern)} uses lookaround, backreferences or syntax the linear-time engine (RE2) cannot run, and a backtracking engine could stall on it; rewrite it without them`;
  return undefined;
}

/** Each message pattern of a tool's `policy.errors` that could stall the classification of an error. */
export function unsafeErrorRuleIssues(rules: ErrorRules | undefined, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const [key, list] of Object.entries(rules ?? {}))
    for (const [i, rule] of (list ?? []).entries()) {
      const problem = typeof rule === "string" ? patternProblem(rule) : undefined;
      if (problem) issues.push({ path: `${path}.${key}.${i}`, message: problem });
    }
  return issues;
}

/** Every `pattern` and `patternProperties` regex in a schema that a backtracking engine could stall on. */
export function unsafePatternIssues(schema: unknown, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const visit = (node: unknown, at: string) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${at}.${i}`);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}.${key}`;
      if (DATA_KEYWORDS.has(key)) continue;
      const problem = key === "pattern" && typeof value === "string" ? patternProblem(value) : undefined;
      if (problem) {
        issues.push({ path: here, message: problem });
      } else if (key === "patternProperties" && value !== null && typeof value === "object") {
        for (const [regex, sub] of Object.entries(value)) {
          const problem = patternProblem(regex);
          if (problem) issues.push({ path: `${here}.${regex}`, message: problem });
          visit(sub, `${here}.${regex}`);
        }
      } else visit(value, here);
    }
  };
  visit(schema, path);
  return issues;
}

function unsafeMessage(pattern: string): string {
  return `the pattern ${JSON.stringify(pattern)} nests quantifiers (like (a+)+) and could backtrack catastrophically; rewrite it without a repeated group that itself repeats`;
}

/** An importer's tools minus those with a catastrophic pattern, each left out with a warning naming where. */
export function withoutUnsafePatterns(tools: Tool[], warnings: string[]): Tool[] {
  return tools.filter((tool) => {
    const issues = [
      ...unsafePatternIssues(tool.inputSchema, "inputSchema"),
      ...unsafePatternIssues(tool.outputSchema, "outputSchema"),
      ...unsafeErrorRuleIssues(tool.policy?.errors, "policy.errors"),
    ];
    for (const issue of issues) warnings.push(`${tool.name}: ${issue.path}: ${issue.message}; left out`);
    return issues.length === 0;
  });
}
