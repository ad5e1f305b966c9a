// The action a request opens with, when it is a command ("Reverse the string …", "minify this css"): a tool
// whose words never name that action does something else, however well its parameters fit the values.
import { requestStart } from "./envelope.ts";
import { loadNlp } from "./recognisers/nlp.ts";

/** Politeness and fillers before the command ("please", "can you", "quick one,"). */
const LEAD_IN =
  /^(?:(?:please|pls|plz|hey|hi|ok|okay|so|quickly|quick one|can you|could you|would you|will you|can u|i need(?: you)? to|i want(?: you)? to|i'd like(?: you)? to|help me|just|now|also|then|and|go ahead and)[\s,:!]+)*/i;

/**
 * Verbs that ask for any operation at all ("make", "give", "work out", "add"): they say nothing of which
 * tool, so a tool need not name them.
 */
const GENERIC = new Set(
  "get give make do find show tell help turn run calculate calc compute work figure check look see let need want take put use convert change transform produce create generate write pull grab list format execute process handle return provide fetch retrieve determine estimate evaluate express represent render print display output answer read pick break bring send add subtract multiply divide go try test verify confirm".split(
    " ",
  ),
);

/**
 * What follows a verb used as a command: its object ("the", "this", "me a", "every"). Not a pronoun: "split
 * it between 3 people" goes on with what came before, in words the tool need not use.
 */
const OBJECT = /^\s+(?:me\s+|us\s+)?(?:the|a|an|this|these|those|my|our|your|every|all|each|some|both)\b/i;

/** The command verb the request opens with, lower case, or undefined (a question, a statement, a generic verb). */
export function requestedAction(query: string): string | undefined {
  const text = query.slice(requestStart(query)).trim().replace(LEAD_IN, "");
  const verb = /^([A-Za-z]+)(?=\s)/.exec(text)?.[1];
  if (!verb || GENERIC.has(verb.toLowerCase()) || !OBJECT.test(text.slice(verb.length))) return undefined;
  const tags = loadNlp()(text.slice(0, 80)).json()[0]?.terms?.[0]?.tags ?? [];
  // compromise reads an unfamiliar command ("Encode the text") as a noun; a determiner after it says verb.
  return tags.includes("Infinitive") || tags.includes("Noun") ? verb.toLowerCase() : undefined;
}
