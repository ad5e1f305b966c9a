// The console's only way to the service: the public HTTP API, with the key pasted at sign-in (kept in
// sessionStorage, so it lives as long as the tab) or none when the service runs keyless on loopback.
const KEY_ITEM = "switchboard.console.key";

export function storedKey(): string | undefined {
  return sessionStorage.getItem(KEY_ITEM) ?? undefined;
}

export function storeKey(key: string | undefined): void {
  if (key === undefined) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; issues?: { path?: unknown; message?: string }[] };
}

function describe(status: number, body: ErrorBody | undefined): ApiError {
  const error = body?.error;
  const issues = (error?.issues ?? [])
    .map(
      (issue) =>
        `${Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? "")}: ${issue.message}`,
    )
    .join("; ");
  const message = error?.message ?? `the service answered ${status}`;
  return new ApiError(status, error?.code ?? String(status), issues ? `${message} (${issues})` : message);
}

/** A JSON request to the API; an error answer throws ApiError with the service's own message. */
export async function api<T>(method: string, path: string, body?: unknown, key = storedKey()): Promise<T> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    credentials: "omit",
    cache: "no-store",
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok) throw describe(response.status, parsed as ErrorBody);
  return parsed as T;
}

/** The Prometheus text of /metrics (the same key rules as the JSON API). */
export async function metricsText(): Promise<string> {
  const key = storedKey();
  const response = await fetch("/metrics", {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    credentials: "omit",
    cache: "no-store",
  });
  const text = await response.text();
  if (!response.ok) {
    let body: ErrorBody | undefined;
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {}
    throw describe(response.status, body);
  }
  return text;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
