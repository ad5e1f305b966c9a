// A split the dry runs reject (a part finds no tool) is answered whole; but when the whole answer is one
// part's call and another part is a question of its own, answering whole would drop that question
// silently ("… a 429 back from us overnight, is that something they should retry? and what's the sub
// claim in the token …" ran only the token's call, as "completed"). Such a request is answered in its
// parts, so the question nothing serves is reported, not lost.
import { refersBack } from "../../intent/index.ts";
import type { RouteAndExecuteResponse } from "../types.ts";

/** A part that asks: a question word first, or a question mark after it in the request. */
const ASKS =
  /^(?:and\s+|also\s+|but\s+)?(?:what|what's|whats|how|which|when|where|why|who|is|are|does|do|can|should)\b/i;

/** Whether answering `query` as `whole` leaves out a question one of `parts` asks. */
export function dropsQuestion(
  query: string,
  parts: readonly string[],
  whole: RouteAndExecuteResponse,
): boolean {
  if (whole.status !== "completed") return false;
  const call = whole.steps.find((s) => s.step === "arguments");
  if (call?.step !== "arguments") return false;
  const spans = call.filled.flatMap((v) => (v.source === "query" && v.span ? [v.span] : []));
  if (spans.length === 0) return false;
  // Where each part is in the request; a part the split rewrote cannot be placed, and nothing is claimed.
  let from = 0;
  const placed: { start: number; end: number; text: string }[] = [];
  for (const part of parts) {
    const start = query.indexOf(part, from);
    if (start < 0) return false;
    placed.push({ start, end: start + part.length, text: part });
    from = start + part.length;
  }
  const holding = placed.filter((p) => spans.some((s) => s.start < p.end && s.end > p.start));
  const own = holding[0];
  if (holding.length !== 1 || !own) return false;
  // Not a question after the call's part about its answer ("is that right?"): that one the call answers.
  return placed.some(
    (p) =>
      p !== own &&
      !(p.start > own.start && refersBack(p.text)) &&
      // A value of its own: a question with none ("and what role does it carry?") asks another facet of
      // the call the request answers, which that call's answer holds.
      /\d|["“‘`]/.test(p.text) &&
      p.text.trim().split(/\s+/).length >= 4 &&
      (ASKS.test(p.text.trim()) || query.slice(p.end).trimStart().startsWith("?")),
  );
}
