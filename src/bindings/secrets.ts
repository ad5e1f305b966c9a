// Secrets and other configuration reach bindings only from the environment, through {env.NAME} placeholders
// in catalog templates, so catalogs can be shared without credentials in them. Which names a tool may read
// depends on who wrote it (its Grants): the operator's catalog files may read what they reference, a tool
// put through the API only what the operator declared; nobody reads Switchboard's own settings and keys.
import { isOwnSetting } from "../config/index.ts";

export type BindingErrorCode =
  | "ERR_MISSING_SECRET"
  | "ERR_MISSING_ARGUMENT"
  | "ERR_INVALID_ARGUMENT"
  | "ERR_BAD_URL"
  | "ERR_BAD_RESPONSE"
  | "ERR_SECRET_NOT_ALLOWED"
  | "ERR_SECRET_ORIGIN"
  | "ERR_COMMAND_NOT_ALLOWED"
  | "ERR_FILE_NOT_ALLOWED";

export class BindingError extends Error {
  readonly code: string;
  constructor(code: BindingErrorCode, message: string) {
    super(message);
    this.name = "BindingError";
    this.code = code;
  }
}

/** What a tool's bindings may use beyond their own definition; decided by where the tool comes from. */
export interface Grants {
  /** Executables an mcp binding may start. */
  commands: "any" | readonly string[];
  /** Environment variables {env.NAME} may read (Switchboard's own are never readable). */
  secrets: "any" | readonly string[];
  /** Whether a sandbox binding may name a file (the catalog loader confined it to the catalog folder). */
  files: boolean;
}

/** A tool from the operator's catalog files on disk. */
export const OPERATOR_GRANTS: Grants = { commands: "any", secrets: "any", files: true };

/** The value of an environment variable a binding needs; a clear, non-retryable error when it may not. */
export function readSecret(name: string, tool: string, bindingType: string, grants: Grants): string {
  if (isOwnSetting(name) || (grants.secrets !== "any" && !grants.secrets.includes(name))) {
    throw new BindingError(
      "ERR_SECRET_NOT_ALLOWED",
      `tool ${tool}: {env.${name}} is not a secret this tool may read (the operator declares those in SWITCHBOARD_TOOL_SECRETS)`,
    );
  }
  const value = process.env[name];
  if (value === undefined || value === "") {
    throw new BindingError(
      "ERR_MISSING_SECRET",
      `tool ${tool}: the environment variable ${name} is not set (the ${bindingType} binding needs it)`,
    );
  }
  return value;
}

/** Fills every {env.NAME} in a template from the environment. */
export function fillEnvTemplate(template: string, tool: string, bindingType: string, grants: Grants): string {
  return template.replace(/\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) =>
    readSecret(name, tool, bindingType, grants),
  );
}
