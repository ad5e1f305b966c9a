// A request that names another variant of what the tool does: "base32" to a tool that knows base64, "IPv6"
// to one for IPv4, "UTF-16" to one for UTF-8. The words around it match, so the router and the filler see
// the right tool; the digits say it is not.
import type { Tool } from "../../catalog/index.ts";
import { findQuoted, pastedDataStart } from "../../intent/index.ts";
import { toolWords } from "./tool-words.ts";

/** A name with its variant number: letters, an optional hyphen or "v", digits ("base32", "sha-3", "ipv6"). */
const VARIANT = /\b([a-z]{2,})-?v?(\d{1,4})\b/gi;

function variants(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const [, name = "", number = ""] of text.matchAll(VARIANT)) {
    const key = name.toLowerCase();
    found.set(key, (found.get(key) ?? new Set()).add(String(Number(number))));
  }
  return found;
}

/** The variant the request names that the tool's words name only with other numbers, if any ("base32"). */
export function otherVariant(query: string, tool: Tool): string | undefined {
  const own = variants(toolWords(tool));
  for (const [name, numbers] of variants(ownWords(query))) {
    const known = own.get(name);
    if (!known) continue;
    const other = [...numbers].find((n) => !known.has(n));
    if (other !== undefined) return `${name}${other}`;
  }
  return undefined;
}

/** The request's own words: quoted text and pasted data are what it works on ("'closed PAY-101'"). */
function ownWords(query: string): string {
  let words = query.slice(0, pastedDataStart(query) ?? query.length);
  for (const q of findQuoted(words).reverse()) words = `${words.slice(0, q.start)} ${words.slice(q.end)}`;
  return words;
}
