// What tool code may ask of its page: each operation is one plain-data request (zod-checked here, on the
// host's side of the boundary) answered with plain data. No operation takes code to run in the page.
import { z } from "zod";

const selector = z.string().min(1).max(2000);
const timeoutMs = z.number().int().positive().max(120_000).optional();

export const operationSchema = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("open"), url: z.string().min(1).max(8000) }),
  z.strictObject({
    op: z.literal("waitFor"),
    target: z.union([selector, z.strictObject({ text: z.string().min(1).max(2000) })]),
    timeoutMs,
  }),
  z.strictObject({ op: z.literal("click"), selector, timeoutMs }),
  z.strictObject({ op: z.literal("fill"), selector, value: z.string().max(100_000), timeoutMs }),
  z.strictObject({ op: z.literal("select"), selector, values: z.array(z.string().max(2000)).max(100) }),
  z.strictObject({ op: z.literal("press"), key: z.string().min(1).max(40), selector: selector.optional() }),
  z.strictObject({ op: z.literal("text"), selector: selector.optional() }),
  z.strictObject({
    op: z.literal("extract"),
    selector,
    attrs: z.array(z.string().min(1).max(200)).max(50).optional(),
    limit: z.number().int().positive().max(10_000).optional(),
  }),
  z.strictObject({
    op: z.literal("screenshot"),
    selector: selector.optional(),
    fullPage: z.boolean().optional(),
  }),
  z.strictObject({ op: z.literal("content") }),
  z.strictObject({ op: z.literal("blocked") }),
]);

export type Operation = z.infer<typeof operationSchema>;

/** Why an operation failed, as a class the tool (and the call's error message) can act on. */
export type BrowserFailureClass =
  | "invalid" // a malformed request or selector
  | "blocked" // the URL is outside the tool's allowlist or the egress rules
  | "not_found" // no element matches the selector
  | "limit" // a per-call bound: pages, bytes, content or screenshot size
  | "timeout" // the operation's deadline passed
  | "browser_crashed" // the browser died or stopped answering; it was restarted
  | "unavailable"; // Chromium is not installed, or the browser is closing

export class BrowserFailure extends Error {
  readonly class: BrowserFailureClass;
  constructor(failureClass: BrowserFailureClass, message: string) {
    super(`${failureClass}: ${message}`);
    this.name = "BrowserError";
    this.class = failureClass;
  }
}

export interface BlockedRequest {
  url: string;
  reason: string;
  type?: string;
}
