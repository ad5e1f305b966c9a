// What a parameter's schema alone says about the values it takes: opaque kinds, a pattern, a date, enum values.
import { linearRegExp, type RegExpLike } from "../catalog/index.ts";
import type { JsonSchema, Param } from "./filler.ts";
import type { OpaqueKind } from "./opaque.ts";
/** Opaque kinds a string parameter accepts, from its format, name and description. */
export function opaqueKindsFor(param: Param): OpaqueKind[] {
  const kinds: OpaqueKind[] = [];
  const format = param.schema.format;
  // The name's words, singular: "candidate_email", "interviewerEmails" and "email" all name an email.
  const words = new Set(param.words.map((w) => w.replace(/(?<=..)s$/, "")));
  const named = (...kinds: string[]) => kinds.some((k) => words.has(k));
  if (/\b(?:token|jwt)\b/.test(param.hint)) kinds.push("jwt");
  // "to: Recipient email addresses" takes emails; "subject: Subject of the email" does not.
  if (format === "email" || named("email") || /\be-?mail address/.test(param.hint)) kinds.push("email");
  if (format === "uri" || format === "url" || named("url", "uri")) kinds.push("url");
  if (format === "uuid" || named("uuid")) kinds.push("uuid");
  if (/\biban\b/.test(param.hint)) kinds.push("iban");
  if (named("ip", "ipv4", "cidr", "subnet", "netmask", "gateway")) kinds.push("ip");
  if ((named("card") || param.name === "number") && param.type === "string")
    kinds.push("card_number", "long_number");
  if (named("hash", "digest", "checksum")) kinds.push("hash");
  if (named("phone", "mobile", "tel", "telephone") || /\bphone\b|\be\.164\b/.test(param.hint))
    kinds.push("phone");
  if (/\btimestamp|epoch|unix\b/.test(param.hint) && param.type !== "string") kinds.push("long_number");
  return kinds;
}

/** Parameters whose value is free text: the first takes an opaque blob or a quoted string. */
export const TEXT_NAMES =
  /^(?:text|input|data|string|value|content|password|csv|json|expression|query|body|message)$/;

export const compiledPatterns = new Map<string, RegExpLike | undefined>();

/** A schema's pattern runs on the linear-time engine the catalog checks calls with: it is the tool's data. */
export function matchesPattern(param: Param, value: string): boolean {
  const pattern = param.schema.pattern;
  if (typeof pattern !== "string") return false;
  if (!compiledPatterns.has(pattern)) {
    let compiled: RegExpLike | undefined;
    try {
      compiled = linearRegExp(pattern, "u");
    } catch {
      compiled = undefined;
    }
    if (compiledPatterns.size > 1000) compiledPatterns.clear();
    compiledPatterns.set(pattern, compiled);
  }
  return compiledPatterns.get(pattern)?.test(value) ?? false;
}

export function isDateParam(param: Param): boolean {
  const format = param.schema.format;
  return (
    format === "date" ||
    (typeof param.schema.pattern === "string" && param.schema.pattern.includes("\\d{4}-\\d{2}-\\d{2}")) ||
    /^(?:date|start|end|from_date|to_date|start_date|end_date)$/.test(param.name) ||
    // "departure_date", or "check_in" described as "Check-in date, YYYY-MM-DD" (not a date with a time).
    (param.type === "string" &&
      (param.words.includes("date") || /\byyyy-mm-dd\b(?![t ]?hh)/.test(param.hint)) &&
      !/\bhh:mm|\bdate-?time\b|\btime\b/.test(param.hint))
  );
}

export function enumValues(param: Param): unknown[] {
  if (Array.isArray(param.schema.enum)) return param.schema.enum;
  const items = param.schema.items as JsonSchema | undefined;
  if (param.type === "array" && items && Array.isArray(items.enum)) return items.enum;
  return [];
}

/** Short values a string parameter's description names in quotes ('Celsius', "USD"). */
export function describedValues(param: Param): string[] {
  const items = param.schema.items as JsonSchema | undefined;
  const text = param.type === "string" || (param.type === "array" && items?.type === "string");
  const description = param.schema.description;
  if (!text || typeof description !== "string") return [];
  const values = [...description.matchAll(/(?<![\p{L}\d])['"“‘]([^'"”’\n]{2,30})['"”’](?![\p{L}\d])/gu)].map(
    (m) => (m[1] ?? "").trim(),
  );
  return [...new Set(values.filter((v) => /\p{L}/u.test(v)))];
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
