// Candidates set aside before one is chosen, whatever the router's score: a tool whose purpose does not
// fit the request, so that it answers no_match (and synthesis can run) rather than run or ask astray.
import type { Tool } from "../../catalog/index.ts";
import {
  askedForWords,
  type FillResult,
  namesAskedFor,
  namesUnit,
  outputNames,
  requestedAction,
} from "../../intent/index.ts";
import { asksAnotherTime } from "./another-time.ts";
import { describedWords, isBare } from "./tool-words.ts";

/** Why the tool is set aside for this request, or undefined when it is not. */
export function setAsideFor(
  tool: Tool,
  fill: FillResult,
  query: string,
  askedFor: string[],
): string | undefined {
  if (asksAnotherTime(tool, query))
    return "set aside: it answers for now, and the request asks about another time";
  // A tool that would ask for values, and whose words (examples and tags too) name none of what the
  // request asks for, is a neighbour of the request, not its tool ("the derivative of x^3" to a
  // calculator): asking would lead the agent astray.
  if (
    !isBare(tool) &&
    fill.missing.length > 0 &&
    askedFor.length > 0 &&
    !askedFor.some((word) => namesAskedFor([word], describedWords(tool)))
  )
    return `set aside: its words name none of "${askedFor.join(" ")}"`;
  // So is one whose words never name the command the request opens with ("Reverse the string …" to a
  // URL codec, "Mint me a JWT" to a JWT decoder).
  const action = requestedAction(query);
  if (!isBare(tool) && action && !namesAskedFor([action], describedWords(tool)))
    return `set aside: its words never name "${action}"`;
  // So is one whose words do not name every word of the thing a request asks it to check ("Is 021000021
  // a valid ABA routing number?" to a card-number validator).
  const checked = VALID_WHAT.exec(query)?.[1];
  const checkedWords = (checked?.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !namesUnit(w));
  const described = describedWords(tool);
  if (!isBare(tool) && checkedWords.some((word) => !namesAskedFor([word], described)))
    return `set aside: its words do not name a valid "${checked}"`;
  // So is one that would run, when nothing it says or answers (its words, examples, output fields) names
  // what the request asks for ("Which Pantone swatch is closest to #e4002b?" to a colour converter). A
  // unit asked for ("how many kilograms …") is a conversion's target, which the values say, not the words.
  const asked = askedForWords(
    query.replace(/^\s*(?:which|what)\s+(?!is\b|are\b|was\b|were\b)/i, "what is the "),
  ).filter((word) => !ADVERBS.has(word) && !namesUnit(word));
  const answers = [describedWords(tool), ...outputNames(tool.outputSchema)].join(" ");
  if (!isBare(tool) && asked.length > 0 && !asked.some((word) => namesAskedFor([word], answers)))
    return `set aside: nothing it says or answers names "${asked.join(" ")}"`;
  return undefined;
}

/** "Is <value> a valid <thing>?": the thing to check, up to the end of the question. */
const VALID_WHAT =
  /^\s*(?:is|are)\s+.{1,80}?\s+(?:a|an)\s+(?:valid|correct|real|legit|legitimate|proper|well-formed)\s+([A-Za-z][A-Za-z -]{2,40}?)\s*(?:[?.,;!]|$)/i;

/** Words that place a request in time or space, not what it asks for ("what's the time there"). */
const ADVERBS = new Set(["there", "then", "now", "here", "today", "tomorrow", "yesterday"]);
