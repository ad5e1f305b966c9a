// Whether a sentence states something rather than asks for it: "The receipt shows 59.80", "dependabot
// wants to bump a lib from 0.4.7 to 0.5.0", "prod started throwing 503s". It opens with none of the ways a
// request opens (a question word, "please", "I need", an imperative verb before its object) and has a
// verb with a subject before it, by compromise's tags (nlp.ts).
import { loadNlp } from "./nlp.ts";

const ASKS =
  /^\s*(?:\W\s*)*(?:(?:also|then|and|now|next|finally|plus|additionally|so|oh|ok|okay|btw|anyway)\b[\s,]*)*(?:please|pls|kindly|can|could|would|will|should|shall|may|is|are|was|were|do|does|did|what|what's|whats|which|who|whom|whose|when|where|why|how|i need|i want|i'd like|i would like|we need|we want|help|let me|tell|give|show|find|get|check|convert|calculate|compute|work out|figure out|list|make|turn|decode|encode|hash|generate|create|count|explain|compare|validate|verify|look up|lookup|evaluate|solve|add|subtract|multiply|divide|sum|round|format|parse|extract|reverse|sort|translate|summarize|summarise|describe|search|estimate|predict|rate|score|split|shorten|slugify|mirror|send|set|run)\b/i;

/** Whether a text opens as a request does: a question word, "please", "I need", a request's verb. */
export function opensRequest(text: string): boolean {
  return ASKS.test(text);
}

interface Term {
  text: string;
  tags: string[];
}

/** A verb in a form that has a subject: past tense, a copula, a modal, or a present tense with "-s". */
function finite(term: Term): boolean {
  const tags = new Set(term.tags);
  return (
    tags.has("Verb") &&
    (tags.has("PastTense") ||
      tags.has("Copula") ||
      tags.has("Modal") ||
      (tags.has("PresentTense") && !tags.has("Infinitive") && !tags.has("Gerund")))
  );
}

export function isStatement(sentence: string): boolean {
  const text = sentence.trim();
  if (text.length === 0 || /\?\s*$/.test(text) || ASKS.test(text)) return false;
  // A clause that asks, after a comma or a dash ("we owe 58.40 for lunch, add a 20% tip"), makes it a request.
  if (
    text
      .split(/[,;]|\s[-–—]\s/)
      .slice(1)
      .some((clause) => ASKS.test(clause))
  )
    return false;
  const terms = (loadNlp()(text).terms().json() as { terms: Term[] }[]).flatMap((t) => t.terms);
  const [first, second] = terms;
  if (!first || !second) return false;
  // "Add an 18% tip", "Double it", "Sort these numbers": a verb in its base form before its object.
  const base = first.tags.includes("Infinitive") || first.tags.includes("Imperative");
  if (base && ["Determiner", "Pronoun", "Value", "Adjective"].some((t) => second.tags.includes(t)))
    return false;
  // compromise takes a sentence's first noun for an imperative too readily ("Project kicks off …", "Report
  // shows …"), and the verb after it for a plural noun: a word in "-s" or "-ed" right after is the verb.
  if (base && /^[a-z]+(?:s|ed)$/i.test(second.text)) return true;
  // "found 1750000000 in a created_at column", "got a 504 on deploy": a past tense whose subject is dropped.
  if (!base && first.tags.includes("PastTense")) return true;
  // "I just set a new password", "we moved the cutoff": a person as the subject (a request in the first
  // person, "I need …", "I'd like …", opens as one above).
  if (/^(?:i|we|they|he|she)$/i.test(first.text) && terms.slice(1).some((t) => t.tags.includes("Verb")))
    return true;
  return terms.slice(1).some(finite);
}

/**
 * A question that only names another facet of the one before it, with no verb and no value of its own
 * ("…, and how many weekdays?", "and which day of the week?"), or asks it of the same thing ("what does
 * HTTP 503 mean and is it safe to retry?"): the same request, not another.
 */
export function asksFacet(text: string): boolean {
  // A facet is a few words; a longer remainder is not read with the tagger, which is linear in its length.
  if (text.length > 120) return false;
  const part = text.trim();
  // "is it …", "does it …": a yes-or-no question whose subject is the thing the request before it names.
  if (/^(?:is|does|will|would|should|can|could|was)\s+it\b/i.test(part))
    return part.length <= 60 && !/[\d"'“‘`]/.test(part);
  if (part.length > 80 || !/^(?:how many|how much|which|what)\b/i.test(part) || /[\d"'“‘`]/.test(part))
    return false;
  const terms = (loadNlp()(part).terms().json() as { terms: Term[] }[]).flatMap((t) => t.terms);
  return !terms.some((t) => t.tags.includes("Verb"));
}
