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

/** A tool's own words (name words, title, description, tags; not its examples), for the dense half and subword similarity. */
export function ownText(tool: Tool): string {
  const parts = [nameWords(tool.name).join(" ")];
  if (tool.title) parts.push(tool.title);
  parts.push(tool.description);
  if (tool.tags?.length) parts.push(tool.tags.join(", "));
  return parts.join(". ");
}

/**
 * The text embedded as a tool's main vector: its text framed as a request to an assistant. Queries are
 * requests ("Can you find me…"), descriptions are not; framing the description the same way moves its
 * vector into the queries' register, which the small sentence encoder needs. Which framing matters little;
 * framing at all helps both ranking and no-tool detection (docs/performance.md has the figures).
 */
export function mainText(tool: Tool): string {
  return `Hi! Can you help me? ${ownText(tool)}`;
}

// A short English stop list: BM25's IDF already discounts common words, but dropping them keeps posting
// lists short, which is what keeps lexical search under a millisecond at 100k tools.
export const STOP_WORDS: ReadonlySet<string> = new Set(
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
    if (STOP_WORDS.has(raw)) continue;
    out.push(term(raw));
  }
  return out;
}

function term(word: string): string {
  return stem(CANONICAL.get(word) ?? word);
}

/** Two terms, order-free, as one key no single term can equal (terms are letters and digits only). */
function pairKey(a: string, b: string): string {
  return a < b ? `${a}+${b}` : `${b}+${a}`;
}

/**
 * Every pair of distinct terms among a tool's name terms: the operation's verb with each of its nouns and
 * the nouns with each other, so `deleteProjectIssue` holds delete+issue, delete+project and issue+project.
 */
export function namePairs(nameTerms: readonly string[]): string[] {
  const words = [...new Set(nameTerms)];
  const out: string[] = [];
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j < words.length; j++) out.push(pairKey(words[i] as string, words[j] as string));
  return out;
}

// Marks and words that end one step of a request ("archive the comment, then delete the invitation"):
// terms on either side belong to different operations and never form a pair.
const CLAUSE_MARKS = /[,.;:!?()]/;
const CLAUSE_WORDS = new Set(["and", "then", "or", "also", "plus", "after", "afterwards", "before"]);

/** How far apart (in terms, stop words skipped) two query terms may be to form a pair. */
const PAIR_WINDOW = 2;

/**
 * A query's terms (as `terms` gives them) and its pairs: terms at most two terms apart within one step of
 * the request, e.g. "update the issue on the account for the payments service" pairs issue with update
 * and account, not with service. One pass over the words, since it runs on every query.
 */
export function queryTerms(text: string): { terms: string[]; pairs: string[] } {
  const out: string[] = [];
  const pairs = new Set<string>();
  for (const part of text.split(CLAUSE_MARKS)) {
    const clause: string[] = [];
    for (const raw of nameWords(part)) {
      if (CLAUSE_WORDS.has(raw)) clause.length = 0;
      if (STOP_WORDS.has(raw)) continue;
      const t = term(raw);
      out.push(t);
      if (CLAUSE_WORDS.has(raw)) continue;
      for (let i = Math.max(0, clause.length - PAIR_WINDOW); i < clause.length; i++) {
        const other = clause[i] as string;
        if (other !== t) pairs.add(pairKey(other, t));
      }
      clause.push(t);
    }
  }
  return { terms: out, pairs: [...pairs] };
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
