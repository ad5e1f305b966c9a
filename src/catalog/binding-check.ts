// What a binding declares beyond its own shape, checked against the rest of the tool: its output mapping
// against the outputSchema, its use of the session context against what it declares.
import { contextIssues } from "./context-placeholders.ts";
import type { SchemaIssue } from "./json-schema.ts";
import { mappingIssues } from "./mapping-check.ts";
import type { Tool } from "./schema.ts";

export function bindingIssues(tool: Tool): SchemaIssue[] {
  return [...mappingIssues(tool), ...contextIssues(tool)];
}
