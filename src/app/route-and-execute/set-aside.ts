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

/** What a request says of the tool it wants: read once per request, weighed for each candidate. */
export interface RequestCues {
  query: string;
  /** What the request asks for in its own words ("the profit margin"). */
  askedFor: string[];
  /** The command verb it opens with ("reverse"), if any. */
  action: string | undefined;
  /** The thing "Is <value> a valid <thing>?" asks to check, and its words. */
  checked: string | undefined;
  checkedWords: string[];
  /** What it asks for, "which"/"what" read as "what is the", without adverbs and units. */
  asked: string[];
}

export function requestCues(query: string, askedFor: string[]): RequestCues {
  const checked = VALID_WHAT.exec(query)?.[1];
  return {
    query,
    askedFor,
    action: requestedAction(query),
    checked,
    checkedWords: (checked?.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !namesUnit(w)),
    asked: askedForWords(
      query.replace(/^\s*(?:which|what)\s+(?!is\b|are\b|was\b|were\b)/i, "what is the "),
    ).filter((word) => !ADVERBS.has(word) && !namesUnit(word)),
  };
}

/** Why the tool is set aside for this request, or undefined when it is not. */
export function setAsideFor(tool: Tool, fill: FillResult, cues: RequestCues): string | undefined {
  if (asksAnotherTime(tool, cues.query))
    return "set aside: it answers for now, and the request asks about another time";
  // The rules below read a described tool's words; a bare tool's description alone is too short for them.
  if (isBare(tool)) return undefined;
  const described = describedWords(tool);
  // A tool that would ask for values, and whose words (examples and tags too) name none of what the
  // request asks for, is a neighbour of the request, not its tool ("the derivative of x^3" to a
  // calculator): asking would lead the agent astray.
  const { askedFor, action, checked, checkedWords, asked } = cues;
  if (
    fill.missing.length > 0 &&
    askedFor.length > 0 &&
    !askedFor.some((word) => namesAskedFor([word], described))
  )
    return `set aside: its words name none of "${askedFor.join(" ")}"`;
  // So is one whose words never name the command the request opens with ("Reverse the string …" to a
  // URL codec, "Mint me a JWT" to a JWT decoder).
  if (action && !namesAskedFor([action], described)) return `set aside: its words never name "${action}"`;
  // So is one whose words do not name every word of the thing a request asks it to check ("Is 021000021
  // a valid ABA routing number?" to a card-number validator).
  if (checkedWords.some((word) => !namesAskedFor([word], described)))
    return `set aside: its words do not name a valid "${checked}"`;
  // So is one that would run, when nothing it says or answers (its words, examples, output fields) names
  // what the request asks for ("Which Pantone swatch is closest to #e4002b?" to a colour converter). A
  // unit asked for ("how many kilograms …") is a conversion's target, which the values say, not the words.
  const answers = [described, ...outputNames(tool.outputSchema)].join(" ");
  if (asked.length > 0 && !asked.some((word) => namesAskedFor([word], answers)))
    return `set aside: nothing it says or answers names "${asked.join(" ")}"`;
  return undefined;
}

/** "Is <value> a valid <thing>?": the thing to check, up to the end of the question. */
const VALID_WHAT =
  /^\s*(?:is|are)\s+.{1,80}?\s+(?:a|an)\s+(?:valid|correct|real|legit|legitimate|proper|well-formed)\s+([A-Za-z][A-Za-z -]{2,40}?)\s*(?:[?.,;!]|$)/i;

/** Words that place a request in time or space, not what it asks for ("what's the time there"). */
const ADVERBS = new Set(["there", "then", "now", "here", "today", "tomorrow", "yesterday"]);
