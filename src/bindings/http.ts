// The provider behind an `http` binding: fills the URL, query and header templates from the arguments
// ({param}) and the environment ({env.NAME}, for secrets), sends the body argument (or, with bodyFrom, every
// argument the templates do not place) as JSON with fetch, and turns the answer into output or into an
// error the dispatcher can classify (status and headers for Retry-After, socket error codes kept).
// Secrets are replaced by *** in everything an error carries.
//
// Arguments cannot steer the request: each one in the URL's path is exactly one segment (".", ".." and ""
// are refused), query values are encoded, requests go out through the egress policy, and a request that
// carries a secret goes only to the origin the template fixes, never across a redirect to another.
// {context.KEY} reads a key of the session context the binding declares (query and headers only).
import type { HttpBinding, SchemaIssue, Tool } from "../catalog/index.ts";
import { type Provider, withContextModifier } from "../dispatch/index.ts";
import { BodyTooLargeError, type EgressPolicy, publicOnly, readCappedBody } from "../egress/index.ts";
import { changesIn, readable } from "./declared-context.ts";
import { BindingError, type Grants, OPERATOR_GRANTS, readSecret } from "./secrets.ts";

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const EXCERPT_CHARS = 300;
/** A provider is the least trusted party: an endless answer must not fill the service's memory. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The body as text, refused past MAX_RESPONSE_BYTES (declared or counted) without reading the rest. */
async function cappedText(response: Response, where: string): Promise<string> {
  try {
    return (await readCappedBody(response, MAX_RESPONSE_BYTES)).toString("utf8");
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new BindingError("ERR_BAD_RESPONSE", `${where}: the answer exceeds ${MAX_RESPONSE_BYTES} bytes`);
    throw error;
  }
}
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
  readonly #grants: Grants;
  readonly #context: Readonly<Args>;

  /** `context` holds only the context keys the binding declares it reads. */
  constructor(tool: string, args: Args, grants: Grants, context: Readonly<Args>) {
    this.#tool = tool;
    this.#args = args;
    this.#grants = grants;
    this.#context = context;
  }

  argument(name: string): unknown {
    return this.#args[name];
  }

  get args(): Args {
    return this.#args;
  }

  /** The value of one placeholder; undefined for an absent argument. */
  value(placeholder: string): string | undefined {
    if (placeholder.startsWith("env.")) {
      const secret = readSecret(placeholder.slice(4), this.#tool, "http", this.#grants);
      this.secrets.add(secret);
      return secret;
    }
    const value = placeholder.startsWith("context.")
      ? this.#context[placeholder.slice(8)]
      : this.#args[placeholder];
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

/** Where in the URL template the path ends (query and fragment follow). */
function pathEnd(template: string): number {
  const end = template.search(/[?#]/);
  return end === -1 ? template.length : end;
}

/** The arguments in the URL template's scheme, host and path: each must be one proper segment. */
function pathArguments(template: string): string[] {
  return [...template.slice(0, pathEnd(template)).matchAll(PLACEHOLDER)]
    .map((m) => m[1] as string)
    .filter((p) => !p.startsWith("env."));
}

const NOT_A_SEGMENT = new Set(["", ".", ".."]);

/** Arguments that cannot fill the binding's URL path (".", "..", empty), as schema-style issues. */
export function pathArgumentIssues(binding: HttpBinding, args: Args): SchemaIssue[] {
  return pathArguments(binding.url).flatMap((name) => {
    const value = args[name];
    if (value === undefined || value === null) return [];
    return NOT_A_SEGMENT.has(text(value))
      ? [
          {
            path: name,
            message: `cannot be ${JSON.stringify(text(value))}: a URL path parameter is one non-empty segment other than "." and ".."`,
          },
        ]
      : [];
  });
}

/**
 * The origin the template fixes when every argument is set aside: the only origin a secret may go to.
 * Undefined when arguments choose the host (then no secret is sent at all).
 */
function declaredOrigin(binding: HttpBinding, filler: Filler): string | undefined {
  const head = binding.url.slice(0, pathEnd(binding.url));
  // Two different stand-ins for every argument: if the origin changes with them, arguments choose it.
  const [first, second] = ["x", "y"].map((standIn) => {
    const probe = head.replace(PLACEHOLDER, (whole, placeholder: string) =>
      placeholder.startsWith("env.") ? whole : standIn,
    );
    const filled = filler.fill(probe);
    try {
      return filled === undefined ? undefined : new URL(filled).origin;
    } catch {
      return undefined;
    }
  });
  return first !== undefined && first === second ? first : undefined;
}

function buildUrl(binding: HttpBinding, filler: Filler, tool: string): URL {
  const issue = pathArgumentIssues(binding, filler.args)[0];
  if (issue !== undefined)
    throw new BindingError(
      "ERR_INVALID_ARGUMENT",
      `tool ${tool}: invalid argument ${issue.path}: ${issue.message}`,
    );
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

export interface HttpDeps {
  egress?: EgressPolicy;
  grants?: Grants;
}

/** Follows redirects by hand: a request with secrets stays on its declared origin. */
async function send(
  first: URL,
  init: { method: string; headers: Headers; body: string | undefined; signal: AbortSignal },
  secretOrigin: string | undefined,
  egress: EgressPolicy,
  tool: string,
): Promise<{ response: Response; url: URL }> {
  let url = first;
  let { method, body } = init;
  for (let hop = 0; ; hop++) {
    const response = await egress.fetch(url, {
      method,
      headers: init.headers,
      body,
      redirect: "manual",
      signal: init.signal,
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) return { response, url };
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS)
      throw new BindingError("ERR_BAD_RESPONSE", `tool ${tool}: more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (secretOrigin !== undefined && next.origin !== secretOrigin)
      throw new BindingError(
        "ERR_SECRET_ORIGIN",
        `tool ${tool}: ${url.origin} redirects to ${next.origin}; a request carrying secrets is not sent to another origin`,
      );
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === "POST")
    ) {
      method = "GET";
      body = undefined;
      init.headers.delete("content-type");
    }
    url = next;
  }
}

/** The arguments the URL, query and header templates place: the rest make the body of `bodyFrom`. */
function templateArguments(binding: HttpBinding): Set<string> {
  const templates = [
    binding.url,
    ...Object.values(binding.query ?? {}),
    ...Object.values(binding.headers ?? {}),
  ];
  return new Set(
    templates
      .flatMap((template) => [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string))
      .filter((placeholder) => !placeholder.startsWith("env.") && !placeholder.startsWith("context.")),
  );
}

/** Every argument no template places, as one object (sent even when empty: the API expects a body). */
function argumentsBody(binding: HttpBinding, args: Args): Args {
  const placed = templateArguments(binding);
  return Object.fromEntries(Object.entries(args).filter(([name]) => !placed.has(name)));
}

export function httpProvider(binding: HttpBinding, tool: Tool, deps: HttpDeps = {}): Provider {
  const id = `http:${binding.method} ${binding.url.split("?")[0]}`;
  const egress = deps.egress ?? publicOnly();
  const grants = deps.grants ?? OPERATOR_GRANTS;
  return {
    id,
    async invoke(args, { signal, context }) {
      const filler = new Filler(tool.name, args, grants, readable(context, binding.context?.read));
      const url = buildUrl(binding, filler, tool.name);
      const headers = new Headers({ accept: "application/json, */*;q=0.5" });
      for (const [name, template] of Object.entries(binding.headers ?? {})) {
        const value = filler.fill(template);
        if (value !== undefined) headers.set(name, value);
      }
      let body: string | undefined;
      const payload =
        binding.bodyFrom === "arguments"
          ? argumentsBody(binding, args)
          : binding.body === undefined
            ? undefined
            : args[binding.body];
      if (payload !== undefined) {
        body = JSON.stringify(payload);
        headers.set("content-type", "application/json");
      }
      let secretOrigin: string | undefined;
      if (filler.secrets.size > 0) {
        secretOrigin = declaredOrigin(binding, filler);
        if (secretOrigin !== url.origin)
          throw new BindingError(
            "ERR_SECRET_ORIGIN",
            `tool ${tool.name}: its arguments choose the host, so its secrets are not sent (the URL template must fix the origin)`,
          );
      }
      const where = filler.mask(`${binding.method} ${url.origin}${url.pathname}`);
      const timeoutMs = binding.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let raw: string;
      try {
        ({ response } = await send(
          url,
          { method: binding.method, headers, body, signal: AbortSignal.any([signal, timeout]) },
          secretOrigin,
          egress,
          tool.name,
        ));
        raw = await cappedText(response, where);
      } catch (error) {
        if (error instanceof BindingError) throw error;
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
      const answer = binding.select === undefined ? output : select(output, binding.select, where);
      const writes = binding.context?.write;
      return writes === undefined ? answer : withContextModifier(answer, changesIn(output, writes));
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
