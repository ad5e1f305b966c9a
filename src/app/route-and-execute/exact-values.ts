// Values whose reading says which tool the request is for, whatever the router's words: an opaque value
// (an email, a JWT), a quantity with its units, a value with a shape of its own (a date, a version), an
// argument the agent sent, or an enum value the request opens with ("uppercase 'abc'": its verb names the
// tool's operation).
import type { FilledValue, FillResult } from "../../intent/index.ts";

/** Whether a position is the request's first word, or its second after "please" or a label's colon. */
function opensWith(query: string, at: number): boolean {
  return /^\s*(?:(?:please|pls|kindly)\s+|[^:]{0,40}:\s*)?$/i.test(query.slice(0, at));
}

export function readsExactValue(fill: FillResult, query: string): boolean {
  return (
    fill.placedOpaque.length > 0 ||
    fill.filled.some(
      (v) =>
        v.source === "agent" ||
        v.evidence === "units" ||
        v.evidence === "shape" ||
        (v.evidence === "enum" && v.span !== undefined && opensWith(query, v.span.start)),
    )
  );
}

/**
 * Three or more values placed as one list: data for a tool that takes a list, which no other tool would take
 * ("avg of 72, 85, 90, 66 and 87"); two numbers are as often two settings ("250 users for 30 minutes").
 */
export function isDataList(v: FilledValue): boolean {
  return v.evidence === "list" && Array.isArray(v.value) && v.value.length >= 3;
}
