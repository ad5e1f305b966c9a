// Checks how an http binding uses the session context: a {context.KEY} placeholder must name a key the
// binding declares it reads, and may stand only in query and header templates. Context values are set by
// tools, so they are never trusted to shape a URL's path or host.
import type { SchemaIssue } from "./json-schema.ts";
import type { Tool } from "./schema.ts";

const CONTEXT_PLACEHOLDER = /\{context\.([^{}]*)\}/g;

export function contextIssues(tool: Tool): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])];
  for (const [i, binding] of bindings.entries()) {
    if (binding?.type !== "http") continue;
    const at = i === 0 ? "binding" : `policy.fallback.${i - 1}`;
    const readable = new Set(binding.context?.read ?? []);
    if (binding.url.includes("{context."))
      issues.push({
        path: `${at}.url`,
        message: "{context.KEY} may stand in query and header templates only, not in the URL",
      });
    const templates = [
      ...Object.entries(binding.query ?? {}).map(([name, t]) => [`${at}.query.${name}`, t] as const),
      ...Object.entries(binding.headers ?? {}).map(([name, t]) => [`${at}.headers.${name}`, t] as const),
    ];
    for (const [path, template] of templates)
      for (const [, key] of template.matchAll(CONTEXT_PLACEHOLDER))
        if (!readable.has(key as string))
          issues.push({
            path,
            message: `{context.${key}} names a context key the binding does not declare in context.read`,
          });
  }
  return issues;
}
