// A request that asks for several things ("convert 5 miles to km and 20 celsius to fahrenheit", "decode
// this, then hash that") split into its intents, and a later intent's reference to an earlier result
// ("that number", "the result") replaced by that result. The split is only a proposal: the caller keeps it
// when every part routes on its own.
import { dataKind } from "./data-kind.ts";
import { pastedDataStart } from "./recognisers/pasted.ts";
import { findQuoted } from "./recognisers/quoted.ts";
import { asksFacet, isStatement, opensRequest } from "./recognisers/statements.ts";

const VERBS =
  "what|what's|whats|how|is|are|does|do|convert|calculate|compute|tell|give|show|check|validate|verify|decode|encode|hash|url|base64|slugify|make|generate|create|uppercase|lowercase|find|get|list|compare|count|explain|split|turn|add";

const ASKING_VERB = new RegExp(`\\b(?:${VERBS})\\b`, "i");

/** A quotation mark that opens a quoted value; an apostrophe inside a word ("the vendor's") is none. */
const OPENS_QUOTE = /["“‘`]|(?<!\w)'(?=\w)/;

/** The most parts a message is read for context in; route-and-execute answers a longer one whole. */
const MAX_PARTS = 8;

/** The end of a sentence that the next one follows. */
const SENTENCE_END = /\.\s+(?=\p{L})/u;
/** The end of a question, and the words that join the next request to it. */
const QUESTION_END = /\?\s+(?:and\s+)?(?:also\s+)?/i;

/** Words that ask the same of several things a request states. */
const EACH = /\b(?:both|each|either|respectively|all (?:of )?(?:them|these|those|three|four|five))\b/i;

/** Separators between intents, strongest first. */
const SEPARATORS = [
  /,?\s+and then\s+/i,
  /,\s*then\s+/i,
  // "md5 of 'switch' then url encode 'a b'": without a comma, only before a verb that starts a request.
  new RegExp(`\\s+then\\s+(?=(?:${VERBS})\\b)`, "i"),
  /\s*;\s*/,
  QUESTION_END,
  SENTENCE_END,
  /,?\s+and (?:also|separately|independently)\s+/i,
  new RegExp(`,?\\s+(?:plus|as well as)\\s+(?=(?:${VERBS})\\b)`, "i"),
  new RegExp(`,?\\s+and\\s+(?=(?:${VERBS})\\b)`, "i"),
  /\s+and\s+(?=(?:in|at|for)\s+\p{Lu})/u,
  /\s+and\s+(?=-?\d)/,
  // "base64 encode 'abc' and sha256 hash 'abc'": each side brings its own quoted value.
  /(?<=["'”]\s*)\s+and\s+(?=[^"'“]*["'“][^"'”]+["'”][^"'“]*$)/,
];

/**
 * Whether a statement before a question is its context, not a request of its own ("The receipt shows 59.80
 * with 15% GST included. What was the amount before GST?"). Only in a message of two sentences: a longer
 * one that states several things states a part in each ("The first equation has a = 2, b = 5. The second
 * …"), as does one that asks the same of each ("… What is the final speed of both?").
 */
function statesContext(query: string): boolean {
  const sentences = query
    .slice(0, pastedDataStart(query))
    .split(/[.?!]+\s+(?=\p{L})/u)
    .filter((s) => s.trim().length > 0);
  return sentences.length === 2 && !EACH.test(query);
}

/**
 * Whether the sentence after a question says why or what about it rather than asking more ("… on saturday?
 * want to catch it", "… my cover letter? the portal caps it at 400"): a statement, or words that bring no
 * value of their own, with no verb a request opens with and no reference to the answer.
 */
function addsContext(after: string): boolean {
  if (/\?\s*$/.test(after) || opensRequest(after) || /^(?:then|also|and|plus|next|finally)\b/i.test(after))
    return false;
  // A purpose with no value of its own ("Want to check it against the vendor's checksum.").
  if (
    /^(?:want|need|trying|going|have)\s+to\b|^so\s+(?:i|we)\b/i.test(after) &&
    !/\d/.test(after) &&
    !OPENS_QUOTE.test(after)
  )
    return true;
  // A statement, values and all ("The conference caps it at 250 and the deadline is 11 June.").
  if (isStatement(after)) return true;
  if (ASKING_VERB.test(after) || refersBack(after)) return false;
  return !/[\d"'“‘`]/.test(after);
}

function splitOnce(text: string, separator: RegExp, context: boolean): string[] {
  const global = new RegExp(separator.source, `${separator.flags.replace("g", "")}g`);
  // Quoted text is one value, whatever it says ("count the sentences in \"Ship it. Fix it.\"").
  // Quotes around the whole request are no value's: the message was pasted with them.
  const quoted = findQuoted(text)
    .map((q) => ({ start: q.start - 1, end: q.end + 1 }))
    .filter((q) => q.start > 0 || q.end < text.trim().length);
  const data = pastedDataStart(text);
  if (data !== undefined) quoted.push({ start: data, end: text.length });
  const parts: string[] = [];
  let at = 0;
  for (const match of text.matchAll(global)) {
    if (quoted.some((q) => match.index >= q.start && match.index < q.end)) continue;
    const left = text.slice(at, match.index);
    const right = text.slice(match.index + match[0].length);
    // A statement before the request is its context, and so is one after it ("convert the register value
    // into hex. it's on line 88 of the dump").
    if (separator === SENTENCE_END && context && (isStatement(left) || statesMore(right))) continue;
    if (separator === QUESTION_END && context && /^\?\s+$/.test(match[0]) && addsContext(right)) continue;
    // A facet is read up to its own question mark: what follows it is another part.
    if (/\band\b|\?/i.test(match[0]) && asksFacet(right.split(/[?;]/)[0] ?? right)) continue;
    // "between 2024-01-01 and 2024-12-25", "1.0.0 and 1.2.0", "12, 15 and 31", "5, 10 and 20 miles to km":
    // one intent's values.
    if (
      /\band\b/i.test(match[0]) &&
      !/[?;]/.test(match[0]) &&
      (/\b(?:between|from)\s+\S+$/i.test(left) ||
        /^\S+[?.!]?$/.test(right.trim()) ||
        (/\d\s*,\s*-?\d[\d.]*$/.test(left) && /^-?\d/.test(right)))
    )
      continue;
    parts.push(left);
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** A part that is only a continuation ("in London", "20 celsius to fahrenheit") borrows the first part's verb. */
function complete(part: string, first: string): string {
  if (/^(?:in|at|for)\s/i.test(part)) {
    const lead = /^(.*?)\s+(?:in|at|for)\s+\S[\s\S]*$/i.exec(first)?.[1];
    return lead ? `${lead} ${part}` : part;
  }
  if (/^-?\d/.test(part)) {
    const lead = /^(\D*?)\s*-?\d/.exec(first)?.[1];
    return lead ? `${lead} ${part}` : part;
  }
  return part;
}

/**
 * A question that only asks for the result of the part before it ("… + 42. what does that come to?",
 * "how much is that?"): every word an asking or a linking one, with a reference among them. It asks nothing
 * of its own, so it is no intent.
 */
const ONLY_ASKS_RESULT =
  /^(?:(?:what(?:'s)?|whats|how|much|does|do|did|is|was|would|will|it|that|this|come|comes|to|out|the|answer|result|total|be|i|we|get|so|then|and|ok|okay|please|equal|equals|make|makes|give|tell|me|us)\b[\s?!.,]*)+$/i;

function onlyAsksResult(part: string): boolean {
  return ONLY_ASKS_RESULT.test(part.trim()) && /\b(?:it|that|this|answer|result|total)\b/i.test(part);
}

/** A statement after the request that adds to it, not one that brings another case ("The next bill came to …"). */
function statesMore(sentence: string): boolean {
  return isStatement(sentence) && !/\b(?:next|another|second|other|same)\b/i.test(sentence);
}

/** One sentence that states, or names a topic with no value and no request ("Reviewing the ops runbook"). */
function opensAsContext(part: string, query: string): boolean {
  // Not a question whose mark the split took ("If I leave 8,000 at 4.5% …, what's the final balance?").
  const at = query.indexOf(part);
  if (/[.?!]\s/.test(part) || (at >= 0 && query[at + part.length] === "?")) return false;
  if (/\b(?:what|what's|whats|how|which|when|where|why|who)\b/i.test(part) || OPENS_QUOTE.test(part))
    return false;
  return isStatement(part) || (!opensRequest(part) && !/[\d"'“‘`?]/.test(part));
}

/**
 * The items of a numbered list ("1. … 2. …", "…: 1) … 2) …"), when the message has one: what comes before
 * the first item is a header when it ends in a colon ("three quick ones:"), and the first item's context
 * otherwise ("We're weighing a 45,000 loan at 7.25% over 5 years. 1) what's the monthly payment?").
 */
function numberedItems(query: string): string[] | undefined {
  const first = /(?:^|[\s:])1[.)]\s+/.exec(query);
  if (!first || !/\s2[.)]\s+/.test(query.slice(first.index))) return undefined;
  const at = first.index + (first[0].length - first[0].trimStart().length);
  const items = query
    .slice(at)
    .split(/(?:^|\s+)\d+[.)]\s+/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (items.length < 2) return undefined;
  const lead = query.slice(0, at).trim();
  if (lead && !/:$/.test(lead)) items[0] = `${lead} ${items[0]}`;
  return items;
}

/**
 * The items of a bulleted list under a header ("release notes housekeeping:\n- slug for …\n- sha256 of …"),
 * when the list ends the message. A list under a request ("extract the emails from:\n- …") is its data.
 */
function bulletedItems(query: string): string[] | undefined {
  const lines = query.split("\n");
  const start = lines.findIndex((l) => BULLET.test(l));
  if (start < 0) return undefined;
  const list = lines.slice(start).filter((l) => l.trim().length > 0);
  if (list.length < 2 || !list.every((l) => BULLET.test(l))) return undefined;
  const lead = lines.slice(0, start).join(" ").trim();
  if (lead && (!lead.endsWith(":") || ASKING_VERB.test(lead) || opensRequest(lead))) return undefined;
  return list.map((l) => l.replace(BULLET, "").trim());
}

const BULLET = /^\s*[-*•]\s+(?=\S)/;

/**
 * Numbers under a label ("fridge logger readings (°F): 36.5, 37.2, 38.1") that the next part, a question
 * with no value of its own, asks about ("what's the average?"): one request.
 */
function asksAboutData(data: string, part: string): boolean {
  const labelled = /^[^:?]{1,60}:\s*([\s\S]+)$/.exec(data);
  const kind = labelled ? dataKind(labelled[1] ?? "") : undefined;
  return (
    kind?.label === "numbers" &&
    kind.after === "" &&
    !/\d/.test(part) &&
    /^(?:and\s+)?(?:what|what's|whats|how|which)\b/i.test(part)
  );
}

/** The request's intents, in order; one element when it asks for one thing. */
export function splitIntents(query: string): string[] {
  const listed = numberedItems(query) ?? bulletedItems(query);
  if (listed) return listed;
  let parts = [query.trim()];
  const context = statesContext(query);
  for (const separator of SEPARATORS) parts = parts.flatMap((p) => splitOnce(p, separator, context));
  // Sentences that open a message of several requests by stating something ("Load test results came
  // back.", "Reviewing the ops runbook.") are the first request's context, unless the message asks the
  // same of each thing it states.
  // Only in a message of a few parts: a longer one is answered whole, and tagging each part costs.
  let lead = 0;
  while (lead < parts.length - 1 && parts.length <= MAX_PARTS && opensAsContext(parts[lead] ?? "", query))
    lead++;
  if (lead > 0 && !EACH.test(query)) parts = [parts.slice(0, lead + 1).join(". "), ...parts.slice(lead + 1)];
  // An interjection the separators left alone ("… black or white? oh and is 3.10.0 newer …") is no part.
  parts = parts.filter((p) => !/^(?:oh|ok|okay|also|and|btw|so|um|hmm|right)[\s,.!]*$/i.test(p));
  parts = parts.reduce<string[]>((kept, part) => {
    const previous = kept.at(-1);
    if (previous !== undefined && (onlyAsksResult(part) || asksAboutData(previous, part)))
      kept[kept.length - 1] = `${previous}. ${part}`;
    else kept.push(part);
    return kept;
  }, []);
  const first = parts[0] ?? query;
  return parts.map((p, i) => (i === 0 ? p : complete(p, first)));
}

// A bare "that" is a reference ("convert that to hex", "is that a leap year"), unless it opens a clause
// about a noun before it ("the cron line that our retry job uses", "the one that triggers the cleanup");
// "the number of days" is a measure, and "the date 45 business days after 2025-09-01" names its own.
const REFERENCE =
  /\bthat number of\b|\b(?:that|the) (?:number|value|result|date|amount|text|string)\b(?!\s+(?:of\b|[\d"'“‘]))|(?<!\b(?:the|a|an)\s+\w+\s+)\bthat\b(?!\s+(?:our|we|i|you|they|he|she|my|your|their|his|her|its|the|this)\b)|(?<=\b(?:make|turn|convert|encode|decode|hash|change|put|give|show|slugify|uppercase|lowercase|reverse|count)\s+)it\b|(?<=\b(?:in|of)\s+)it\b/i;

/** Whether an intent refers to the previous one's result. */
export function refersBack(intent: string): boolean {
  return REFERENCE.test(intent);
}

/**
 * Whether an intent's reference is to the previous part's answer, not to a value the intent states before
 * it: "our standup is at 09:30 on 2025-07-01, what time is that in Tokyo?" asks about its own time, as
 * "what's that in UTC" after a timestamp does, but "take 10% of that" works on the previous answer.
 */
export function refersToPrevious(intent: string): boolean {
  const reference = REFERENCE.exec(intent);
  if (!reference) return false;
  const before = intent.slice(0, reference.index);
  // "what time is that …" or a remark after a comma ("what's 40°F in celsius, that's the limit") about a
  // value the part states before it.
  return !(/[\d"“‘`]/.test(before) && /(?:\bis|'s|\bwas|\bare|[,;])\s*$/i.test(before));
}

/** The kind of value a reference names ("that date"), if it names one. */
export function referencedKind(intent: string): "date" | undefined {
  return /\b(?:that|the)\s+(?:date|day)\b/i.test(REFERENCE.exec(intent)?.[0] ?? "") ? "date" : undefined;
}

/** The intent with its reference replaced by the value (strings other than numbers and dates quoted). */
export function substituteReference(intent: string, value: unknown): string {
  const text =
    typeof value === "number" || (typeof value === "string" && /^-?[\d.]+$|^\d{4}-\d{2}-\d{2}$/.test(value))
      ? String(value)
      : `"${String(value)}"`;
  return intent.replace(REFERENCE, text);
}

/**
 * An answer's main value: its `result`, else the first scalar field that is not an echo of the input; for a
 * reference to a date ("that date"), the first date among the output's and the input's values.
 */
export function primaryValue(output: unknown, input: Record<string, unknown>, kind?: "date"): unknown {
  if (kind === "date") {
    const values = [...Object.values((output ?? {}) as Record<string, unknown>), ...Object.values(input)];
    return values.find((v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v));
  }
  if (!output || typeof output !== "object") return output;
  const record = output as Record<string, unknown>;
  if (record.result !== undefined && typeof record.result !== "object") return record.result;
  const echoes = new Set(Object.values(input).map((v) => String(v)));
  for (const value of Object.values(record)) {
    if (typeof value === "boolean" || value === null || typeof value === "object") continue;
    if (!echoes.has(String(value))) return value;
  }
  return undefined;
}
