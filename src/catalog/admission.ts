// What a tool written through the API (PUT, synthesis) must satisfy beyond the schema. Such a tool is
// trusted less than the operator's catalog files: it names no command the operator did not allow, reads
// no secret the operator did not declare, carries its code inline instead of naming a file, uses no regex
// that backtracks catastrophically, and has a name every MCP client accepts.
import type { SchemaIssue } from "./json-schema.ts";
import { unsafeErrorRuleIssues, unsafePatternIssues } from "./regex.ts";
import type { Binding, Tool } from "./schema.ts";

/** The MCP tool-name rule (specification 2025-11-25, "Tool names"): 1-128 of A-Z a-z 0-9 _ - . */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Names that are JavaScript object internals: refused everywhere, even in catalog files. */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export interface AdmissionRules {
  /** Executables an mcp binding may start (SWITCHBOARD_MCP_COMMANDS). */
  mcpCommands: readonly string[];
  /** Environment variables {env.NAME} may read (SWITCHBOARD_TOOL_SECRETS). */
  toolSecrets: readonly string[];
}

const ENV_PLACEHOLDER = /\{env\.([^{}]*)\}/g;

export function reservedNameIssue(name: string): SchemaIssue | undefined {
  return RESERVED_TOOL_NAMES.has(name)
    ? { path: "name", message: `"${name}" is reserved (a JavaScript object internal); choose another name` }
    : undefined;
}

/** The MCP rule and the reserved names, for every write path. */
export function nameIssues(name: string): SchemaIssue[] {
  const reserved = reservedNameIssue(name);
  if (reserved) return [reserved];
  if (MCP_TOOL_NAME.test(name)) return [];
  return [
    {
      path: "name",
      message: `must be 1-128 characters of letters, digits, "_", "." or "-" (the MCP tool-name rule); got ${name.length} character(s)${/[^\x20-\x7e]/.test(name) ? " including control or non-ASCII characters" : ""}`,
    },
  ];
}

/**
 * A name an importer can write: characters outside the MCP rule become "_", at most 128 of them, and a
 * reserved or empty name gets a suffix. Importers warn when the name changed.
 */
export function importedName(raw: string): string {
  const name = raw.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 128);
  if (name === "" || /^_+$/.test(name)) return "tool";
  return RESERVED_TOOL_NAMES.has(name) ? `${name}_tool` : name;
}

/** Every template string of a binding that may hold {env.NAME}, with its path. */
function templates(binding: Binding): [string, string][] {
  if (binding.type === "http") {
    return [
      ["url", binding.url],
      ...Object.entries(binding.query ?? {}).map(([k, v]): [string, string] => [`query.${k}`, v]),
      ...Object.entries(binding.headers ?? {}).map(([k, v]): [string, string] => [`headers.${k}`, v]),
    ];
  }
  if (binding.type === "mcp") {
    return [
      ...Object.entries(binding.env ?? {}).map(([k, v]): [string, string] => [`env.${k}`, v]),
      ...Object.entries(binding.headers ?? {}).map(([k, v]): [string, string] => [`headers.${k}`, v]),
    ];
  }
  return [];
}

function bindingIssues(binding: Binding, at: string, rules: AdmissionRules): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (binding.type === "sandbox" && binding.file !== undefined) {
    issues.push({
      path: `${at}.file`,
      message:
        "a tool put through the API carries its code inline (`code`); `file` is for catalog files on disk",
    });
  }
  if (
    binding.type === "mcp" &&
    binding.command !== undefined &&
    !rules.mcpCommands.includes(binding.command)
  ) {
    issues.push({
      path: `${at}.command`,
      message: `"${binding.command}" is not an MCP server command the operator allowed (SWITCHBOARD_MCP_COMMANDS: ${rules.mcpCommands.join(", ") || "none"})`,
    });
  }
  for (const [field, template] of templates(binding)) {
    for (const [, name = ""] of template.matchAll(ENV_PLACEHOLDER)) {
      if (rules.toolSecrets.includes(name)) continue;
      issues.push({
        path: `${at}.${field}`,
        message: `{env.${name}} is not a secret the operator declared for tools put through the API (SWITCHBOARD_TOOL_SECRETS: ${rules.toolSecrets.join(", ") || "none"})`,
      });
    }
  }
  return issues;
}

/** Problems that keep a tool from being stored through the API or by synthesis; empty when admitted. */
export function admissionIssues(tool: Tool, rules: AdmissionRules): SchemaIssue[] {
  const issues = nameIssues(tool.name);
  if (tool.binding) issues.push(...bindingIssues(tool.binding, "binding", rules));
  for (const [i, fallback] of (tool.policy?.fallback ?? []).entries())
    issues.push(...bindingIssues(fallback, `policy.fallback.${i}`, rules));
  issues.push(...unsafePatternIssues(tool.inputSchema, "inputSchema"));
  if (tool.outputSchema) issues.push(...unsafePatternIssues(tool.outputSchema, "outputSchema"));
  issues.push(...unsafeErrorRuleIssues(tool.policy?.errors, "policy.errors"));
  return issues;
}
