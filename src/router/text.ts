// How a tool becomes text: the words of its name (API-style names carry most of their meaning there), its
// title, description, tags and examples. Shared by the dense and the lexical halves so both see one tool.
import type { Tool } from "../catalog/index.ts";

/** `listRepositoryWebhooks`, `get_user_v2`, `PDF&URLTool` → lower-case words, digits split off. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)/g, "$1 $2")
    .replace(/(\d)([A-Za-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** The text embedded as a tool's main vector. */
export function denseText(tool: Tool): string {
  const parts = [nameWords(tool.name).join(" ")];
  if (tool.title) parts.push(tool.title);
  parts.push(tool.description);
  if (tool.tags?.length) parts.push(tool.tags.join(", "));
  return parts.join(". ");
}

// A short English stop list: BM25's IDF already discounts common words, but dropping them keeps posting
// lists short, which is what keeps lexical search under a millisecond at 100k tools.
const STOP = new Set(
  (
    "a an and are as at be by can could do does for from has have how i if in into is it its me my of on or " +
    "our please should so some that the their them then there these this to us was we what when where which " +
    "who will with would you your"
  ).split(" "),
);

// API vocabulary has many spellings for one operation or resource ("add"/"create", "repo"/"repository").
// Both the tools' text and the queries go through this map, so either spelling finds the other.
const CANONICAL = new Map(
  Object.entries({
    add: "create",
    remove: "delete",
    fetch: "get",
    retrieve: "get",
    modify: "update",
    edit: "update",
    change: "update",
    find: "search",
    repo: "repository",
    repos: "repository",
    org: "organization",
    orgs: "organization",
    env: "environment",
    config: "configuration",
    db: "database",
    msg: "message",
    info: "information",
    app: "application",
    auth: "authentication",
    doc: "document",
    docs: "document",
  }),
);

/** Lexical terms: lower-case words with a light plural/verb-ending stem, stop words dropped. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of nameWords(text)) {
    if (STOP.has(raw)) continue;
    out.push(stem(CANONICAL.get(raw) ?? raw));
  }
  return out;
}

// Hand-written rather than a Porter stemmer package: only the endings that separate "webhooks" from
// "webhook" and "listing" from "list" matter here, and a full stemmer over-merges API words.
function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}
