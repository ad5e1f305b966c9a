// The provider behind an `http` binding: fills the URL, query and header templates from the arguments
// ({param}) and the environment ({env.NAME}, for secrets), sends the body argument as JSON with fetch, and
// turns the answer into output or into an error the dispatcher can classify (status and headers for
// Retry-After, socket error codes kept). Secrets are replaced by *** in everything an error carries.
import type { HttpBinding, Tool } from "../catalog/index.ts";
import type { Provider } from "../dispatch/index.ts";
import { BindingError, readSecret } from "./secrets.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
const EXCERPT_CHARS = 300;
const PLACEHOLDER = /\{([^{}]+)\}/g;

/** A non-2xx answer. `headers` are lower-cased; `body` is a short excerpt with secrets masked. */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  constructor(message: string, status: number, headers: Record<string, string>, body: string) {
    super(message);
    this.name = "HttpStatusError";
    this.status = status;
    this.headers = headers;
    this.body = body;
  }
}

/** A mistake that retrying cannot fix (a missing secret or argument); `code` names which. */

type Args = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === "string"
    ? value
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);
}

/** Everything one call needs to fill templates, and to mask the secrets it used. */
class Filler {
  readonly secrets = new Set<string>();
  readonly #tool: string;
  readonly #args: Args;

  constructor(tool: string, args: Args) {
    this.#tool = tool;
    this.#args = args;
  }

  argument(name: string): unknown {
    return this.#args[name];
  }

  /** The value of one placeholder; undefined for an absent argument. */
  value(placeholder: string): string | undefined {
    if (placeholder.startsWith("env.")) {
      const secret = readSecret(placeholder.slice(4), this.#tool, "http");
      this.secrets.add(secret);
      return secret;
    }
    const value = this.#args[placeholder];
    return value === undefined || value === null ? undefined : text(value);
  }

  /** A template with every placeholder filled; undefined when an argument it names is absent. */
  fill(template: string, encode: (s: string) => string = (s) => s): string | undefined {
    let missing = false;
    const filled = template.replace(PLACEHOLDER, (_, placeholder: string) => {
      const value = this.value(placeholder);
      if (value === undefined) missing = true;
      // {env.NAME} is configuration (a base URL such as the shop API's, a key) and goes in verbatim;
      // only arguments are encoded.
      return placeholder.startsWith("env.") ? (value ?? "") : encode(value ?? "");
    });
    return missing ? undefined : filled;
  }

  mask(message: string): string {
    let masked = message;
    for (const secret of this.secrets) masked = masked.replaceAll(secret, "***");
    return masked;
  }
}

function buildUrl(binding: HttpBinding, filler: Filler, tool: string): URL {
  const path = filler.fill(binding.url, encodeURIComponent);
  if (path === undefined) {
    const missing = [...binding.url.matchAll(PLACEHOLDER)]
      .map((m) => m[1] as string)
      .filter((p) => !p.startsWith("env.") && (filler.argument(p) ?? null) === null);
    throw new BindingError(
      "ERR_MISSING_ARGUMENT",
      `tool ${tool}: the URL needs the argument(s) ${missing.join(", ")}`,
    );
  }
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    // The URL may hold a secret: the message carries the template, never the filled value.
    throw new BindingError("ERR_BAD_URL", `tool ${tool}: "${binding.url}" does not make an absolute URL`);
  }
  for (const [name, template] of Object.entries(binding.query ?? {})) {
    // A query entry that is exactly one argument holding an array repeats the parameter (?tag=a&tag=b).
    const only = /^\{([^{}]+)\}$/.exec(template)?.[1];
    const list = only === undefined ? undefined : filler.argument(only);
    if (Array.isArray(list)) {
      for (const item of list) url.searchParams.append(name, text(item));
      continue;
    }
    const value = filler.fill(template);
    if (value !== undefined) url.searchParams.append(name, value);
  }
  return url;
}

export function httpProvider(binding: HttpBinding, tool: Tool): Provider {
  const id = `http:${binding.method} ${binding.url.split("?")[0]}`;
  return {
    id,
    async invoke(args, { signal }) {
      const filler = new Filler(tool.name, args);
      const url = buildUrl(binding, filler, tool.name);
      const headers = new Headers({ accept: "application/json, */*;q=0.5" });
      for (const [name, template] of Object.entries(binding.headers ?? {})) {
        const value = filler.fill(template);
        if (value !== undefined) headers.set(name, value);
      }
      let body: string | undefined;
      const payload = binding.body === undefined ? undefined : args[binding.body];
      if (payload !== undefined) {
        body = JSON.stringify(payload);
        headers.set("content-type", "application/json");
      }
      const where = filler.mask(`${binding.method} ${url.origin}${url.pathname}`);
      const timeoutMs = binding.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let raw: string;
      try {
        response = await fetch(url, {
          method: binding.method,
          headers,
          body,
          signal: AbortSignal.any([signal, timeout]),
        });
        raw = await response.text();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (timeout.aborted) {
          throw Object.assign(new Error(`${where}: no answer within ${timeoutMs} ms`), {
            name: "TimeoutError",
            code: "ETIMEDOUT",
          });
        }
        // undici reports socket failures as TypeError("fetch failed") with the system error as cause.
        const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
        const code = typeof cause?.code === "string" ? cause.code : undefined;
        const reason = filler.mask(String(cause?.message ?? (error as Error).message));
        throw Object.assign(new Error(`${where}: ${reason}`), code ? { code } : {});
      }
      if (!response.ok) {
        const excerpt = filler.mask(raw.slice(0, EXCERPT_CHARS));
        throw new HttpStatusError(
          `${where}: HTTP ${response.status} ${response.statusText}${excerpt ? `: ${excerpt}` : ""}`,
          response.status,
          Object.fromEntries(response.headers),
          excerpt,
        );
      }
      if (binding.method === "HEAD" || raw === "") return null;
      let output: unknown = raw;
      if (/\bjson\b/i.test(response.headers.get("content-type") ?? "")) {
        try {
          output = JSON.parse(raw);
        } catch {
          throw new BindingError("ERR_BAD_RESPONSE", `${where}: the response says JSON but does not parse`);
        }
      }
      return binding.select === undefined ? output : select(output, binding.select, where);
    },
  };
}

/** The value at a dot path ("data.items.0.name") of the parsed response. */
function select(value: unknown, path: string, where: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object" || !(key in current)) {
      throw new BindingError("ERR_BAD_RESPONSE", `${where}: the response has no "${path}" (select)`);
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
