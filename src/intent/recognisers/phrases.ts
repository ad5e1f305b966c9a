// Free-text values in a request: the noun phrases ("plasma membrane", "the Amazon rainforest", "Taylor Swift",
// "Washington D.C."), each with its span, the word that introduces it ("in", "by", "from") and what kind of
// name it is (a place, a person, an organisation), from compromise's tags (nlp.ts); a hand-made word list
// could not tell "Monterey" from "Find". Phrases are runs of nouns and their modifiers cut at
// punctuation, prepositions, verbs and conjunctions; a run of phrases joined by "and"/"," is a list.
import { loadNlp } from "./nlp.ts";
import type { Mention } from "./span.ts";

export interface PhraseMention extends Mention {
  /** The word right before it, skipping articles ("in", "by", "of"), lower case, or "". */
  previous: string;
  /** The word before that, lower case, or "" ("from" in "travel from Paris to Rome" for "Rome" is "to"). */
  previousTwo: string;
  /** The word right after it, lower case, or "". */
  next: string;
  /** At least one word is a name (capitalised mid-sentence, or known to compromise). */
  proper: boolean;
  place: boolean;
  person: boolean;
  organisation: boolean;
  /** Phrases joined by "and", "or" or commas share a list number; a phrase on its own has none. */
  list?: number;
  /**
   * The name inside a phrase that has common words around it: "Eminem" of "the next Eminem concert",
   * "Gibson Les Paul" of "a used Gibson Les Paul guitar". Absent when the phrase is all name or no name.
   */
  core?: { text: string; start: number; end: number };
}

interface Term {
  text: string;
  pre: string;
  post: string;
  tags: Set<string>;
  start: number;
  end: number;
}

/** How much of a request is read for phrases: a request's values are in its first sentences. */
const WINDOW = 2_000;

const PART = new Set(["Noun", "ProperNoun", "Acronym", "Adjective", "Possessive"]);
const NEVER = new Set([
  "Pronoun",
  "Verb",
  "Preposition",
  "Conjunction",
  "Determiner",
  "QuestionWord",
  "Value",
]);
/** Words compromise may tag as nouns that point at a value rather than name one. */
const POINTERS =
  /^(?:here|there|now|today|tonight|please|someone|something|anything|everything|everyone|me|us)$/i;
const ARTICLE = /^(?:the|a|an|some|any|my|our|your|his|her|their|its)$/i;
/** Prepositions compromise may tag as a noun or an adjective ("against Apple"): never part of a name. */
const PREPOSITION =
  /^(?:against|about|above|across|along|among|amongst|behind|below|beneath|beside|besides|beyond|despite|during|except|inside|near|onto|outside|through|throughout|toward|towards|under|upon|within|without|via|versus|vs)$/i;
/** A possessive ending ("Einstein's"): the name ends there, and what follows is another phrase. */
const POSSESSIVE = /['’]s$/i;

function termsOf(text: string): Term[] {
  const sentences = loadNlp()(text).json({ offset: true, terms: { offset: true } }) as {
    terms: {
      text: string;
      pre: string;
      post: string;
      tags: string[];
      offset: { start: number; length: number };
    }[];
  }[];
  return sentences.flatMap((s) =>
    s.terms.map((t) => ({
      text: t.text,
      pre: t.pre,
      post: t.post,
      tags: new Set(t.tags),
      start: t.offset.start,
      end: t.offset.start + t.offset.length,
    })),
  );
}

/** A term that can be part of a noun phrase. */
function partOf(term: Term): boolean {
  if ([...term.tags].some((t) => NEVER.has(t)) && !term.tags.has("ProperNoun")) return false;
  if (!/\p{L}/u.test(term.text) || POINTERS.test(term.text) || ARTICLE.test(term.text)) return false;
  if (PREPOSITION.test(term.text)) return false;
  return [...term.tags].some((t) => PART.has(t)) || /^\p{Lu}/u.test(term.text);
}

/** Punctuation after a term that ends a phrase (a comma, a full stop, a bracket), not an abbreviation's dot. */
const BREAK = /[,;:!?()[\]{}"“”]|\.(?:\s|$)/;

/** Lower-case words inside a name, between capitalised ones. */
const PARTICLE = /^(?:de|da|di|du|del|della|des|la|le|van|von|der|den|dos|y|of)$/;
/** Abbreviations whose full stop does not end a name ("Mr. Smith", "St. Louis"). */
const TITLE = /^(?:mr|mrs|ms|dr|st|mt|ft|jr|sr|prof|gen|sen|rev)$/i;

const capitalised = (term: Term) => /^\p{Lu}/u.test(term.text);

/**
 * Whether the phrase ends after `here`: at punctuation, but not at the full stop of an initial or a title
 * before a capitalised word ("Ursula K. Le Guin", "Mr. X", "St. Louis").
 */
function ends(here: Term, next: Term): boolean {
  if (!BREAK.test(here.post)) return false;
  const abbreviation = /^\.\s?$/.test(here.post) && (/^\p{Lu}$/u.test(here.text) || TITLE.test(here.text));
  return !(abbreviation && capitalised(next));
}

export function findPhrases(request: string): PhraseMention[] {
  const text = request.slice(0, WINDOW);
  const terms = termsOf(text);
  const phrases: PhraseMention[] = [];
  const joiners: boolean[] = [];
  const areas: { whole: Area; head: Area }[] = [];
  let i = 0;
  while (i < terms.length) {
    const first = terms[i] as Term;
    if (!partOf(first)) {
      i++;
      continue;
    }
    let j = i;
    for (;;) {
      const here = terms[j] as Term;
      const next = terms[j + 1];
      if (!next || ends(here, next) || POSSESSIVE.test(here.text) || BREAK.test(next.pre)) break;
      if (partOf(next)) j++;
      // "Tour de France", "Leonardo da Vinci", "Bank of America": a particle between two capitalised words.
      else if (
        PARTICLE.test(next.text) &&
        capitalised(here) &&
        terms[j + 2] &&
        capitalised(terms[j + 2] as Term)
      )
        j += 2;
      else break;
    }
    // A phrase ends on a noun or a name: trailing adjectives ("a chimp similar") are not part of it.
    let last = j;
    while (last > i && !isNounLike(terms[last] as Term)) last--;
    const run = terms.slice(i, last + 1);
    if (run.some(isNounLike)) {
      const start = (run[0] as Term).start;
      const lastTerm = run.at(-1) as Term;
      const end = lastTerm.end - (POSSESSIVE.test(lastTerm.text) ? 2 : 0);
      const before = wordsBefore(terms, i);
      const after = terms[last + 1];
      const has = (tag: string) => run.some((t) => t.tags.has(tag));
      areas.push({ whole: areaOf(run), head: areaOf(run.slice(-1)) });
      phrases.push({
        text: text.slice(start, end),
        start,
        end,
        previous: before[0] ?? "",
        previousTwo: before[1] ?? "",
        next: after && !BREAK.test((terms[last] as Term).post) ? after.text.toLowerCase() : "",
        proper: run.some((t, k) => t.tags.has("ProperNoun") || (k + i > 0 && /^\p{Lu}/u.test(t.text))),
        place: has("Place"),
        person: has("Person"),
        organisation: has("Organization"),
        ...coreOf(text, run, i, start, end),
      });
      joiners.push(joinsNext(terms, last));
    }
    i = j + 1;
  }
  joinPlaceAndArea(text, phrases, joiners, areas);
  markLists(text, phrases, joiners);
  return phrases;
}

/**
 * What kind of area a phrase names: a country, a region (a state, a province) or a postal code of one
 * ("MA", "D.C."), or none. compromise tags the first two; an all-capital code of two letters it does not know.
 */
type Area = "country" | "region" | "code" | undefined;

function areaOf(run: Term[]): Area {
  if (run.length === 1 && /^(?:[A-Z]{2}|[A-Z]\.[A-Z]\.)$/.test((run[0] as Term).text)) return "code";
  if (run.every((t) => t.tags.has("Country"))) return "country";
  if (run.every((t) => t.tags.has("Region"))) return "region";
  return undefined;
}

/**
 * "Denver, Colorado", "Boston, MA" and "Rome, Italy" are one place written with the area it is in, not a list
 * of two: a place followed by a comma and a larger area is joined to it. Two areas of one rank ("Texas,
 * California", "France, Italy") stay a list; a phrase's rank is its last word's ("the states Texas").
 */
function joinPlaceAndArea(
  text: string,
  phrases: PhraseMention[],
  joiners: boolean[],
  areas: { whole: Area; head: Area }[],
): void {
  const larger = (place: Area, area: Area) =>
    area === "code" ||
    (area === "country" && place !== "country") ||
    (area === "region" && place === undefined);
  for (let k = 0; k + 1 < phrases.length; k++) {
    const place = phrases[k] as PhraseMention;
    const area = phrases[k + 1] as PhraseMention;
    if (!place.place || !/^,\s*$/.test(text.slice(place.end, area.start))) continue;
    const rank = areas[k + 1]?.whole;
    if (!(area.place || rank === "code") || !larger(areas[k]?.head, rank)) continue;
    const { core: _dropped, ...whole } = place;
    phrases.splice(k, 2, {
      ...whole,
      text: text.slice(place.start, area.end),
      end: area.end,
      next: area.next,
    });
    joiners.splice(k, 2, joiners[k + 1] as boolean);
    areas.splice(k, 2, areas[k + 1] as { whole: Area; head: Area });
  }
}

/** A name's word: capitalised past the request's first word, or holding a digit ("CA123456"). */
function isNameWord(term: Term, index: number): boolean {
  return (index > 0 && /^\p{Lu}/u.test(term.text)) || (/\d/.test(term.text) && /\p{L}/u.test(term.text));
}

/** The run of name words inside a phrase that also has common words at an edge. */
function coreOf(
  text: string,
  run: Term[],
  first: number,
  start: number,
  end: number,
): Pick<PhraseMention, "core"> {
  const names = run.map((t, k) => isNameWord(t, first + k));
  const from = names.indexOf(true);
  const to = names.lastIndexOf(true);
  if (from < 0 || (from === 0 && to === run.length - 1)) return {};
  const coreStart = (run[from] as Term).start;
  const coreEnd = Math.min(end, (run[to] as Term).end - (POSSESSIVE.test((run[to] as Term).text) ? 2 : 0));
  if (coreStart <= start && coreEnd >= end) return {};
  return { core: { text: text.slice(coreStart, coreEnd), start: coreStart, end: coreEnd } };
}

function isNounLike(term: Term): boolean {
  return (
    term.tags.has("Noun") ||
    term.tags.has("ProperNoun") ||
    term.tags.has("Acronym") ||
    (/^\p{Lu}/u.test(term.text) && !term.tags.has("Adjective"))
  );
}

/** The two words before term `i`, skipping articles, lower case. */
function wordsBefore(terms: Term[], i: number): string[] {
  const words: string[] = [];
  for (let k = i - 1; k >= 0 && words.length < 2; k--) {
    const t = terms[k] as Term;
    if (BREAK.test(t.post) && words.length === 0 && k === i - 1 && !/,/.test(t.post)) break;
    if (ARTICLE.test(t.text) && words.length === 0) continue;
    words.push(t.text.toLowerCase());
  }
  return words;
}

/** Whether the phrase ending at term `last` is followed by ", " or "and"/"or" and another phrase. */
function joinsNext(terms: Term[], last: number): boolean {
  const end = terms[last] as Term;
  if (/,/.test(end.post)) return true;
  const next = terms[last + 1];
  return next !== undefined && /^(?:and|or)$/i.test(next.text);
}

/** Consecutive phrases joined by commas or "and"/"or" (and nothing else) form a list. */
function markLists(text: string, phrases: PhraseMention[], joiners: boolean[]): void {
  let list = 0;
  for (let k = 0; k + 1 < phrases.length; k++) {
    const here = phrases[k] as PhraseMention;
    const next = phrases[k + 1] as PhraseMention;
    if (!joiners[k]) continue;
    if (!/^[\s,]*(?:(?:and|or)\s+)?(?:(?:the|a|an)\s+)?$/i.test(text.slice(here.end, next.start))) continue;
    if (here.list === undefined) here.list = ++list;
    next.list = here.list;
  }
}
