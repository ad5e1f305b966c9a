// Secrets and other configuration reach bindings only from the environment, through {env.NAME} placeholders
// in catalog templates, so catalogs can be shared without credentials in them.

export class BindingError extends Error {
  readonly code: string;
  constructor(
    code: "ERR_MISSING_SECRET" | "ERR_MISSING_ARGUMENT" | "ERR_BAD_URL" | "ERR_BAD_RESPONSE",
    message: string,
  ) {
    super(message);
    this.name = "BindingError";
    this.code = code;
  }
}

/** The value of an environment variable a binding needs; a clear, non-retryable error when it is unset. */
export function readSecret(name: string, tool: string, bindingType: string): string {
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
export function fillEnvTemplate(template: string, tool: string, bindingType: string): string {
  return template.replace(/\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) =>
    readSecret(name, tool, bindingType),
  );
}
