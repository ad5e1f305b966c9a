// Free-text values (a city, an artist, a compound, a list of names) to the string parameters left open, in
// one weighed assignment: the parameter's own word beside the phrase ("the company Tesla", "AA genotype"),
// the kind of name for the kind of parameter (a place "in"/"from"/"to" for a location, a person "by" for an
// artist), "from … to …" for where something starts and ends, and, for required parameters only, the order
// of the names. Optional parameters take a phrase only on a cue: what the request does not state is left out.
import { assignBest, type Candidate } from "./assign.ts";
import type { Evidence } from "./confidence.ts";
import { type Filler, type JsonSchema, type Param, typeOf } from "./filler.ts";
import type { Span } from "./opaque.ts";
import { kindOf } from "./param-kinds.ts";
import { findPhrases, type PhraseMention } from "./recognisers/phrases.ts";
import { enumValues, isDateParam, opaqueKindsFor, TEXT_NAMES } from "./schema-cues.ts";

/** Parameters that hold an identifier, a secret or data, never a name written in words. */
const NOT_A_NAME = new Set(
  "id ids uuid key token hash password secret url uri path file filename email phone code regex pattern".split(
    " ",
  ),
);

const WEIGHT = { ownWord: 3, kind: 2, direction: 1.5, preposition: 1, order: 0.5 } as const;
/** A kind read from the description only (see ParamKind.described) weighs this share of one its name says. */
const DESCRIBED_KIND = 0.6;

/** Words that introduce a place, a person or an organisation. */
const PLACE_WORDS = new Set(["in", "at", "from", "to", "near", "between", "and", "around", "of", "for"]);
const PERSON_WORDS = new Set(["by", "of", "for", "with", "from", "and"]);
const START_WORDS = new Set(["from", "between", "leaving", "departing"]);
const END_WORDS = new Set(["to", "into", "towards", "reach", "reaching"]);

interface Scored {
  weight: number;
  how: string;
  evidence: Evidence;
  /** The value, when the parameter's own word is cut from the phrase ("AA" of "AA genotype"). */
  value?: string;
}

/** String parameters (or lists of strings) whose value is free text: no enum, no date, no opaque kind. */
function takesText(param: Param): boolean {
  if (enumValues(param).length > 0 || isDateParam(param) || opaqueKindsFor(param).length > 0) return false;
  if (typeof param.schema.format === "string" || typeof param.schema.pattern === "string") return false;
  if (TEXT_NAMES.test(param.name) || param.words.some((w) => NOT_A_NAME.has(w))) return false;
  if (param.type === "string") return true;
  return param.type === "array" && typeOf((param.schema.items ?? {}) as JsonSchema) === "string";
}

const names = (param: Param, word: string) =>
  param.words.some((w) => w.length > 2 && (w === word || `${w}s` === word || w === `${word}s`));

/**
 * The phrase less the parameter's own words at either end ("AA genotype" for genotype is "AA", "case
 * number CA123456" for case_number is "CA123456"); a capitalised word is part of a name ("Premier League").
 */
function withoutOwnWord(param: Param, m: PhraseMention): string | undefined {
  const words = m.text.split(/\s+/);
  const own = (w: string | undefined) => w !== undefined && w === w.toLowerCase() && names(param, w);
  let from = 0;
  let to = words.length;
  while (to - from > 1 && own(words[to - 1])) to--;
  while (to - from > 1 && own(words[from])) from++;
  return from === 0 && to === words.length ? undefined : words.slice(from, to).join(" ");
}

/** The word that introduces a phrase: for the later items of a list, the one before its first item. */
function introducer(m: PhraseMention, all: PhraseMention[]): string {
  if (m.list === undefined) return m.previous;
  return all.find((p) => p.list === m.list)?.previous ?? m.previous;
}

function cueFor(param: Param, m: PhraseMention, all: PhraseMention[]): Scored | undefined {
  const kind = kindOf(param);
  const previous = introducer(m, all);
  let best: Scored | undefined;
  const take = (s: Scored) => {
    if (!best || s.weight > best.weight) best = s;
  };
  // Beside the parameter's word, a name ("AA genotype", "the company Tesla"), not a pointer ("the meeting time").
  const stripped = withoutOwnWord(param, m);
  // A person is named after the word ("the player Serena Williams"); before it, a word says what kind of
  // person ("a Tennis player").
  const describesPerson = kind.person && stripped !== undefined && m.text.trimStart().startsWith(stripped);
  if (stripped && /\p{Lu}|\d/u.test(stripped) && !describesPerson)
    take({
      weight: WEIGHT.ownWord,
      how: "name beside the parameter's word",
      evidence: "text_word",
      value: stripped,
    });
  if ((m.proper || /\d/.test(m.text)) && (names(param, m.previous) || names(param, m.previousTwo)))
    take({ weight: WEIGHT.ownWord, how: `name after "${m.previous}"`, evidence: "text_word" });
  let weight = 0;
  if (kind.place && (m.place || (m.proper && PLACE_WORDS.has(previous)))) weight = WEIGHT.kind;
  if (kind.person && (m.person || (m.proper && PERSON_WORDS.has(previous)))) weight = WEIGHT.kind;
  if (kind.organisation && (m.organisation || m.proper)) weight = Math.max(weight, WEIGHT.kind * 0.75);
  if (weight > 0 && kind.direction) {
    const starts = START_WORDS.has(previous) || (previous === "between" && m.list === undefined);
    const ends = END_WORDS.has(previous) || (m.previous === "and" && /between/.test(m.previousTwo));
    if ((kind.direction === "start" && starts) || (kind.direction === "end" && ends))
      weight += WEIGHT.direction;
    else if (starts || ends) weight -= WEIGHT.direction;
  }
  // An optional parameter takes a name only on a cue of its own: its description alone is not one.
  if (weight > 0 && kind.described) weight = param.required ? weight * DESCRIBED_KIND : 0;
  // "from English into Portuguese": a name after "from" is a source's, after "to"/"into" a target's, by
  // the parameter's own word for its direction, whatever the name's kind.
  if (weight === 0 && kind.direction && m.proper) {
    const named = kind.direction === "start" ? START_WORDS.has(previous) : END_WORDS.has(previous);
    if (named) weight = WEIGHT.direction;
  }
  if (weight > 0) take({ weight, how: `name of its kind after "${previous}"`, evidence: "text_kind" });
  return best;
}

function isNameKind(param: Param): boolean {
  const kind = kindOf(param);
  return kind.place || kind.person || kind.organisation;
}

/** Whether a phrase lies in a span another value took, including enum values (which leave their span free). */
function taken(f: Filler, m: Span): boolean {
  if (!f.free(m)) return true;
  return f.filled.some((v) => v.span !== undefined && m.start < v.span.end && m.end > v.span.start);
}

/** A parameter for a part of a person's name: "first" (given) or "last" (family, surname). */
const namePart = (param: Param, part: "first" | "last"): boolean =>
  param.type === "string" &&
  (part === "first"
    ? /^(?:first|given)_?name$|^firstname$/i.test(param.name)
    : /^(?:last|family|sur)_?name$|^lastname$|^surname$/i.test(param.name));

/**
 * A person's full name for a first-name and a last-name parameter ("a guy named Tomás Reyes"): the first
 * word is the given name, the rest the family name.
 */
function splitPersonName(f: Filler, open: Param[], phrases: PhraseMention[]): void {
  const first = open.find((p) => namePart(p, "first"));
  const last = open.find((p) => namePart(p, "last"));
  if (!first || !last) return;
  const people = phrases.filter((m) => m.person && /^\S+(?:\s+\S+)+$/.test(m.text.trim()));
  const [person] = people;
  if (!person || people.length !== 1) return;
  const text = person.text.trim();
  const cut = text.indexOf(" ");
  const start = person.start + (person.text.length - person.text.trimStart().length);
  f.set(first, text.slice(0, cut), { start, end: start + cut }, "given name of a person", "text_kind");
  f.set(
    last,
    text.slice(cut + 1),
    { start: start + cut + 1, end: start + text.length },
    "family name of a person",
    "text_kind",
  );
}

export function fillFreeText(f: Filler, params: Param[]): void {
  const openNow = () => params.filter((p) => !f.has(p) && takesText(p));
  if (openNow().length === 0) return;
  const all = findPhrases(f.text);
  // A month's name in a date ("March 2025", "June 2, 2025") is no place or person.
  const dated = [...f.mentions.dates, ...f.mentions.months];
  const inDate = (m: PhraseMention) => dated.some((d) => d.start <= m.start && d.end >= m.end);
  const freeNow = () => all.filter((m) => !taken(f, m) && !inDate(m)).slice(0, 32);
  // A person's name parts first; the other parameters are filled from what is left.
  splitPersonName(f, openNow(), freeNow());
  const open = openNow();
  if (open.length === 0) return;
  const phrases = freeNow();
  const required = open.filter((p) => p.required);
  const candidates: Candidate<PhraseMention, Param>[] = [];
  const scored = new Map<string, Scored>();
  // Order is the weakest cue and only for required parameters, and only among names and phrases a
  // preposition introduces: "the shortest route" is no value.
  const named = phrases.filter((m) => m.proper || m.place || m.person);
  for (const [i, m] of phrases.entries())
    for (const [j, param] of open.entries()) {
      let cue = cueFor(param, m, all);
      const k = required.indexOf(param);
      const rank = named.indexOf(m);
      if (!cue && k >= 0 && rank >= 0)
        cue = {
          weight: WEIGHT.order / (1 + Math.abs(rank - k)),
          how: "name, by order",
          evidence: "text_order",
        };
      if (!cue) continue;
      candidates.push({ mention: m, param, weight: cue.weight });
      scored.set(`${i}:${j}`, cue);
    }
  for (const c of assignBest(phrases, open, candidates)) {
    const cue = scored.get(`${phrases.indexOf(c.mention)}:${open.indexOf(c.param)}`);
    if (!cue) continue;
    const text = cue.value ?? c.mention.text;
    if (c.param.type === "array") {
      const items =
        c.mention.list === undefined ? [c.mention] : phrases.filter((p) => p.list === c.mention.list);
      const span = { start: (items[0] as PhraseMention).start, end: (items.at(-1) as PhraseMention).end };
      f.set(
        c.param,
        items.map((p) => p.text),
        span,
        `${cue.how}, a list`,
        cue.evidence,
      );
    } else if (cue.value === undefined && c.mention.core && isNameKind(c.param))
      // A person, place or organisation is the name, without the common words around it ("Eminem",
      // not "the next Eminem concert"); other text keeps its words ("ATP synthase").
      f.set(c.param, c.mention.core.text, c.mention, cue.how, cue.evidence);
    else f.set(c.param, text, c.mention, cue.how, cue.evidence);
  }
}
