// Data an agent or a person pastes after the request: the text after a colon that ends the instruction
// ("count the words in: …"), or the lines after one that points to them ("Can you turn this into JSON
// records?\n\nsku;qty…", "…to the CC list:\n\nHi team, …").
import type { Mention } from "./span.ts";

/**
 * Where a line break starts pasted data: after a line ending in a colon or naming the data ("this",
 * "below"), counted from the mark that ends that line, so that "…records?\n\n" ends no question before it.
 */
export function pastedDataStart(text: string): number | undefined {
  const lineBreak = text.indexOf("\n");
  if (lineBreak < 0) return undefined;
  const before = text.slice(0, lineBreak);
  // A line break inside quoted text is the quoted value's own ("Parse this CSV: \"sku,qty\nA-1,4\"").
  if ((before.match(/"/g) ?? []).length % 2 === 1) return undefined;
  return /:\s*$/.test(before) || /\b(?:this|these|below|following|here)\b/i.test(before)
    ? before.trimEnd().length - 1
    : undefined;
}

/** The pasted data, whichever starts first: the lines after a pointing line, or the text after a colon. */
export function findPasted(text: string): Mention | undefined {
  const colon = /:\s+(\S[\s\S]*)$/.exec(text);
  const fromColon = colon?.[1]
    ? { text: colon[1], start: colon.index + colon[0].indexOf(colon[1]), end: text.length }
    : undefined;
  const lineStart = pastedDataStart(text);
  const lines = lineStart === undefined ? "" : text.slice(lineStart + 1);
  const start = lineStart === undefined ? -1 : lineStart + 1 + (lines.length - lines.trimStart().length);
  if (start < 0 || start >= text.length || (fromColon && fromColon.start <= start)) return fromColon;
  return { text: text.slice(start), start, end: text.length };
}
