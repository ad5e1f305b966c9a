// The host side of the capabilities a sandboxed tool may be granted. Requests arrive as JSON strings
// built by sandbox/prelude.js and every answer leaves as a JSON string: nothing but copied text crosses.
import { createRequire } from "node:module";
import { z } from "zod";
import type { Capabilities } from "../catalog/index.ts";
import {
  BodyTooLargeError,
  type EgressPolicy,
  isAllowedUrl,
  publicOnly,
  readCappedBody,
} from "../egress/index.ts";
import type { UpstreamFault } from "./errors.ts";

// cheerio is loaded by the first selection: a process whose tools never select markup never needs it,
// and loading it costs a noticeable part of a CLI command's start.
const require = createRequire(import.meta.url);
const loadCheerio = () => require("cheerio") as typeof import("cheerio");

type FetchGrant = NonNullable<Capabilities["fetch"]>;

const MAX_REDIRECTS = 5;

const fetchRequestSchema = z.object({
  url: z.string(),
  method: z.string(),
  headers: z.record(z.string(), z.unknown()),
  body: z.string().optional(),
});

const htmlRequestSchema = z.object({
  markup: z.string(),
  selector: z.string(),
  options: z
    .object({ attr: z.string().optional(), limit: z.number().int().positive().optional() })
    .default({}),
});

/** Raised inside the tool as an ordinary Error: the tool may catch it, or it becomes a runtime failure. */
export class CapabilityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CapabilityError";
  }
}

function requestOf<T>(schema: z.ZodType<T>, json: string, what: string): T {
  const parsed = schema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new CapabilityError(`${what}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

async function readCapped(response: Response, maxBytes: number, url: string): Promise<string> {
  try {
    return (await readCappedBody(response, maxBytes)).toString("utf8");
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new CapabilityError(`fetch ${url}: the response exceeds maxBytes ${maxBytes}`);
    throw error;
  }
}

const ERRNO_CODE = /^[A-Z][A-Z0-9_]+$/;

/** A connection that failed (not one the egress policy refused): its code, as undici gives it. */
function connectionFault(error: unknown): UpstreamFault | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === "string" && ERRNO_CODE.test(cause.code) ? cause.code : undefined;
  if (code === "ERR_EGRESS_DENIED") return undefined;
  return { code: code ?? "ECONNRESET" };
}

/** Answers that say the upstream could not serve: 5xx and 429. */
function answerFault(response: Response): UpstreamFault | undefined {
  if (response.status < 500 && response.status !== 429) return undefined;
  return { status: response.status, headers: Object.fromEntries(response.headers) };
}

/**
 * fetch() on behalf of a tool: the URL and every redirect target must be allowed, the method granted, and
 * the body within maxBytes and timeoutMs. Redirects are followed here, by hand, so that each hop is
 * re-checked (fetch's own `redirect: "follow"` would not show us the intermediate URLs). Every connection
 * also goes through the egress policy, which refuses non-public addresses after DNS resolution unless the
 * operator allowed them: a tool's allowlist names URLs, the egress policy the addresses behind them.
 * A failed connection, a timeout and a 5xx or 429 answer are told to `onFault`: whatever the tool then
 * does with them, the parent knows its upstream failed (see UpstreamFault).
 */
export async function proxiedFetch(
  grant: FetchGrant,
  json: string,
  signal: AbortSignal,
  egress: EgressPolicy = publicOnly(),
  onFault: (fault: UpstreamFault) => void = () => {},
): Promise<string> {
  const request = requestOf(fetchRequestSchema, json, "fetch");
  let method = request.method.toUpperCase();
  if (!grant.methods.includes(method as (typeof grant.methods)[number]))
    throw new CapabilityError(
      `fetch: method ${method} is not granted to this tool (granted: ${grant.methods.join(", ")})`,
    );
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new CapabilityError(`fetch: "${request.url}" is not an absolute URL`);
  }
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  let body = request.body;
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(grant.timeoutMs)]);
  for (let hop = 0; ; hop++) {
    // Only the network: a file: URL was refused by fetch itself ("not implemented... yet..."), not by a rule.
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new CapabilityError(`fetch: ${url.href}: only http and https URLs can be fetched`);
    if (!isAllowedUrl(url, grant.allow))
      throw new CapabilityError(
        `fetch: ${url.href} is outside this tool's allowlist (${grant.allow.join(", ")})${hop > 0 ? " (reached by a redirect)" : ""}`,
      );
    let response: Response;
    try {
      response = await egress.fetch(url, { method, headers, body, redirect: "manual", signal: deadline });
    } catch (error) {
      if (deadline.aborted && !signal.aborted) {
        onFault({ code: "ETIMEDOUT" });
        throw new CapabilityError(`fetch ${url.href}: no answer within ${grant.timeoutMs} ms`);
      }
      const fault = signal.aborted ? undefined : connectionFault(error);
      if (fault) onFault(fault);
      const cause = (error as Error).cause;
      throw new CapabilityError(
        `fetch ${url.href}: ${cause instanceof Error ? cause.message : (cause ?? (error as Error).message)}`,
      );
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS) throw new CapabilityError(`fetch: more than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === "POST")
      ) {
        method = "GET";
        body = undefined;
      }
      continue;
    }
    const fault = answerFault(response);
    if (fault) onFault(fault);
    const text = await readCapped(response, grant.maxBytes, url.href);
    return JSON.stringify({
      status: response.status,
      statusText: response.statusText,
      url: url.href,
      headers: Object.fromEntries(response.headers),
      body: text,
    });
  }
}

/** CSS selection over markup, host-side with cheerio: `[{ text, attrs }]`, at most `limit` matches. */
export function selectHtml(json: string): string {
  const { markup, selector, options } = requestOf(htmlRequestSchema, json, "html");
  const $ = loadCheerio().load(markup);
  let matches: ReturnType<typeof $>;
  try {
    matches = $(selector);
  } catch (error) {
    throw new CapabilityError(`html: invalid selector "${selector}": ${(error as Error).message}`);
  }
  const limit = options.limit ?? 1000;
  const out = matches
    .slice(0, limit)
    .toArray()
    .map((element) => {
      const attribs = "attribs" in element ? element.attribs : {};
      const attrs =
        options.attr === undefined
          ? { ...attribs }
          : attribs[options.attr] === undefined
            ? {}
            : { [options.attr]: attribs[options.attr] };
      return { text: $(element).text().trim(), attrs };
    });
  return JSON.stringify(out);
}
