// Where an OpenAPI document and its `$ref`s may be read from, and how they are parsed. A vendor's document is
// data: a reference to /proc/self/environ, to ../.env or to an internal URL must not be read into the
// catalog it makes. A local document reads files inside its own folder only (after symlinks). A document at
// a URL reads its own origin only: every fetch goes through the egress policy, pinned to the addresses the
// origin's name had when the import began, and every redirect hop is checked against the origin again.

import { lookup } from "node:dns/promises";
import { realpathSync } from "node:fs";
import { isIP } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type FileInfo, ResolverError } from "@apidevtools/json-schema-ref-parser";
import { BodyTooLargeError, createEgressPolicy, type EgressPolicy, readCappedBody } from "../egress/index.ts";
import { isInside } from "./load.ts";
import { parseYaml } from "./yaml.ts";

const MAX_REDIRECTS = 5;
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
const READ_TIMEOUT_MS = 30_000;

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

async function bodyWithin(response: Response, url: string): Promise<Buffer> {
  try {
    return await readCappedBody(response, MAX_DOCUMENT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new Error(`${url} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    throw error;
  }
}

/** Reads `url` through `egress`, following redirects only while they stay on `origin`. */
async function readOnOrigin(egress: EgressPolicy, origin: string, url: string): Promise<Buffer> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.origin !== origin) {
      throw new Error(`${url} leads to ${current.href}, outside the document's origin ${origin}`);
    }
    const response = await egress.fetch(current, {
      redirect: "manual",
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, current);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${current.href} answered HTTP ${response.status}`);
    }
    return bodyWithin(response, current.href);
  }
}

/**
 * The egress policy for a document at `spec`: its origin's addresses, resolved once now, are allowed (the
 * operator named them), every other destination only if public; the origin's name keeps those addresses.
 */
async function originPolicy(spec: URL): Promise<EgressPolicy> {
  const host = spec.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(spec.port) || (spec.protocol === "https:" ? 443 : 80);
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, order: "ipv4first" })).map((a) => a.address);
  } catch (error) {
    throw new Error(
      `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return createEgressPolicy({
    allow: addresses.map((a) => (isIP(a) === 6 ? `[${a}]:${port}` : `${a}:${port}`)),
    resolve: async (name) =>
      name === host.toLowerCase() ? addresses : (await lookup(name, { all: true })).map((a) => a.address),
  });
}

/** swagger-parser's `resolve` option for a document at `spec` (a path or an http(s) URL). */
export async function sourcesOf(spec: string) {
  if (/^https?:\/\//i.test(spec)) {
    const url = new URL(spec);
    const egress = await originPolicy(url);
    return {
      file: false,
      http: false,
      origin: {
        order: 1,
        canRead: (file: FileInfo) => URL.parse(file.url)?.origin === url.origin,
        // A ResolverError is reported as it is; any other error becomes a bare "Error reading file".
        read: (file: FileInfo) =>
          readOnOrigin(egress, url.origin, file.url).catch((error: Error) => {
            throw new ResolverError(error, file.url);
          }),
      },
    } as const;
  }
  const root = realOrResolved(spec);
  const folder = dirname(root);
  return {
    http: false,
    file: {
      canRead: (file: FileInfo) => {
        if (/^[a-z][a-z0-9+.-]+:/i.test(file.url) && !file.url.startsWith("file:")) return false;
        const path = file.url.startsWith("file:") ? fileURLToPath(file.url) : decodeURI(file.url);
        const real = realOrResolved(path);
        return real === root || isInside(folder, real);
      },
    },
  } as const;
}

/**
 * swagger-parser's `parse` option: YAML (and JSON, which is YAML) through the project's limited parser, and
 * no text or binary fallback, so a document the limits refuse is an error rather than a string.
 */
export const parsers = {
  yaml: {
    order: 200,
    allowEmpty: true,
    canParse: [".yaml", ".yml", ".json"],
    parse: (file: FileInfo) =>
      Buffer.isBuffer(file.data) || typeof file.data === "string"
        ? parseYaml(file.data.toString())
        : file.data,
  },
  text: false,
  binary: false,
} as const;
