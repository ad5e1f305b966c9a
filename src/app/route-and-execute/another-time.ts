// A tool that answers for the present ("Tells the current date and time…", "Current weather conditions…")
// does not serve a request about another time ("what time will the standup be", "will it rain next week"):
// run, it answers a question nobody asked. Its description's first sentence says "current" or "right now";
// the request speaks of the future or the past and not of now.
import type { Tool } from "../../catalog/index.ts";

const PRESENT_TOOL = /^[^.]*\b(?:current|currently|right now)\b/i;
const ANOTHER_TIME =
  /\b(?:will|tomorrow|yesterday|ago|next (?:week|month|year|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|last (?:week|month|year|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i;
const NOW = /\b(?:now|today|tonight|currently|at the moment|already|yet)\b/i;

/** Whether the tool answers for now and the request asks about another time. */
export function asksAnotherTime(tool: Tool, query: string): boolean {
  return PRESENT_TOOL.test(tool.description) && ANOTHER_TIME.test(query) && !NOW.test(query);
}
