// Quoted text in a request: "double", 'single' (not an apostrophe inside a word) and “curly” quotes. What
// is quoted is data the request hands over verbatim, the strongest evidence for a free-text parameter.
import { allMatches, type Mention } from "./span.ts";

export function findQuoted(text: string): Mention[] {
  return allMatches(text, /"([^"]+)"|(?<![\w])'([^']+)'(?![\w])|“([^”]+)”|`([^`]+)`/g, -1);
}
