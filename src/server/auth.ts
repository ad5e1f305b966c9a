// Bearer API keys with two roles. Agents route, execute and give feedback; maintainers may also change the
// catalog and synthesize tools. Keys come only from the environment and are never logged.
import { createHash, timingSafeEqual } from "node:crypto";

export type Role = "agent" | "maintainer";
export type Access = "public" | Role;

export interface Caller {
  role: Role;
  /**
   * The key's stable id: its role and a fingerprint of the key (agent:1a2b3c4d5e6f), never the key itself,
   * so it cannot leak into logs. It names the key's rate-limit bucket, sessions, executions and the private
   * tools synthesized for it; a fingerprint rather than the key's position keeps all of that with the key
   * when the operator reorders or adds keys, across restarts.
   */
  id: string;
}

/** A key's id: its role and the first 48 bits of its SHA-256, enough to tell an operator's keys apart. */
export function keyId(role: Role, key: string): string {
  return `${role}:${createHash("sha256").update(key).digest("hex").slice(0, 12)}`;
}

export interface Keys {
  agent: string[];
  maintainer: string[];
}

/** RFC 6750's error codes for a 401: none when no key was sent, otherwise why the key was refused. */
export type BearerError = "invalid_request" | "invalid_token";

export const REALM = "switchboard";

export class AuthError extends Error {
  readonly statusCode: 401 | 403;
  readonly bearerError: BearerError | undefined;
  constructor(statusCode: 401 | 403, message: string, bearerError?: BearerError) {
    super(message);
    this.name = "AuthError";
    this.statusCode = statusCode;
    this.bearerError = bearerError;
  }

  /** A key was sent and refused: a guess, which the failed-key throttle counts. */
  get failedKey(): boolean {
    return this.bearerError !== undefined;
  }

  /** The WWW-Authenticate challenge of a 401 (RFC 6750 section 3). */
  get challenge(): string {
    if (!this.bearerError) return `Bearer realm="${REALM}"`;
    const description = this.message.replace(/["\\]/g, "'");
    return `Bearer realm="${REALM}", error="${this.bearerError}", error_description="${description}"`;
  }
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Authenticator {
  readonly #keys: Keys;
  constructor(keys: Keys) {
    this.#keys = keys;
  }

  /** Without any key configured, every caller is a maintainer (the service then binds only to loopback). */
  get enabled(): boolean {
    return this.#keys.agent.length + this.#keys.maintainer.length > 0;
  }

  identify(authorization: string | undefined): Caller {
    if (!this.enabled) return { role: "maintainer", id: "local" };
    if (!authorization)
      throw new AuthError(401, "missing API key: send the header 'Authorization: Bearer <key>'");
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1])
      throw new AuthError(401, "malformed Authorization header: expected 'Bearer <key>'", "invalid_request");
    const key = match[1];
    const m = this.#keys.maintainer.findIndex((k) => sameKey(k, key));
    if (m !== -1) return { role: "maintainer", id: keyId("maintainer", key) };
    const a = this.#keys.agent.findIndex((k) => sameKey(k, key));
    if (a !== -1) return { role: "agent", id: keyId("agent", key) };
    throw new AuthError(401, "unknown API key", "invalid_token");
  }

  authorize(caller: Caller, needed: Access, what: string): void {
    if (needed === "maintainer" && caller.role !== "maintainer")
      throw new AuthError(403, `${what} needs a maintainer key; this key has the agent role`);
  }
}
