// A label an agent puts before the request it passes on ("User asks: …", "[planner] step 3/5: evaluate …").
// The label is no part of the request: it is not routed on, and its numbers are no values.
import { opensRequest } from "./recognisers/statements.ts";

/** The longest label, in words: a longer lead before a colon is an instruction with its data after it. */
const LABEL_WORDS = 5;

/**
 * A header that counts what follows ("three things:", "2 quick questions:", "Firmware notes, three
 * things:"): its number is no value.
 */
const COUNTED_HEADER =
  /^(?:[^,]{1,40},\s*)?(?:\w+|a\s+few|a\s+couple(?:\s+of)?)\s+(?:quick\s+|small\s+)?(?:things|questions|tasks|items|requests|asks|ones|bits)(?:\s+(?:from|for|about|on)\s+[^,]{1,40})?$/i;
/** A place in a plan the agent works through ("Task 1 of 3:", "Step 2/5:", "Question 4:"): its numbers are no values. */
const PLAN_STEP =
  /^(?:task|step|question|item|part|request|subtask)\s+\d+(?:\s*(?:of|\/)\s*\d+)?(?:\s+of\s+(?:the|our|my)\s+[^,]{1,40})?$/i;

/** Where the request starts after a leading label, or 0 when it has none. */
export function requestStart(text: string): number {
  const colon = /^\s*([^:\n]{1,60}?):\s+/.exec(text);
  if (!colon) return 0;
  const label = colon[1] ?? "";
  if (COUNTED_HEADER.test(label.trim()) || PLAN_STEP.test(label.trim())) return colon[0].length;
  if (label.trim().split(/\s+/).length > LABEL_WORDS) return 0;
  return opensRequest(text.slice(colon[0].length)) ? colon[0].length : 0;
}
