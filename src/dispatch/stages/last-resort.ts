// Which failures the last resorts (a stale cached answer, the tool's degraded output) may cover: not an
// input error, a cancelled batch or a call that never got a slot.
import type { ErrorRules } from "../../catalog/index.ts";
import type { Call } from "../call.ts";
import { classify } from "../classify.ts";
import type { ErrorClass } from "../types.ts";

export function lastResortFor(
  call: Call,
  error: unknown,
  rules: ErrorRules | undefined,
): ErrorClass | undefined {
  if (call.signal?.aborted) return undefined;
  const cls = classify(error, rules).class;
  return cls === "fatal" || cls === "cancelled" || cls === "queue_timeout" ? undefined : cls;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
