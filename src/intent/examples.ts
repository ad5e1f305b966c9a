// What a tool's example calls teach about how its values are phrased. Each example call pairs a request
// with the arguments it means; every argument value is looked for in the request. A value written there
// ("26.2" in "how many kilometres is 26.2 miles") teaches the words around it (the cue words of that
// parameter); a value not written there (12 for "compounded monthly", 2 for "binary") teaches the words
// only that example has as a phrase for the value. Any catalog's examples teach the same way.
import { findNumbers } from "./recognisers/numbers.ts";

export interface ExampleCall {
  query?: string;
  arguments: Record<string, unknown>;
}

/** Words too common to say anything about the value next to them. */
const FILLER = new Set("a an the is are was what what's me my i please it this that and or".split(" "));

export interface LearnedCues {
  /** Parameters of type string that the examples gave a number (an integer written as text). */
  numeric: Set<string>;
  /** Per parameter: words seen right before its value (up to two back) and right after it. */
  before: Map<string, Set<string>>;
  after: Map<string, Set<string>>;
  /** Phrases that stood for a value not written in the request. */
  phrases: { param: string; phrase: string; value: unknown }[];
  /**
   * The same for string values (an enum value phrased in other words: "as a percentage of" for
   * what_percent). Such words are too loose to place a value, but they show when the words of an enum value
   * mean another value in this tool's own phrasing.
   */
  stringPhrases: { param: string; phrase: string; value: string }[];
  /**
   * Words that stand for an enum value the examples phrase without naming it: a word at least two of that
   * value's examples use and no example of another value does ("off" for a decrease, "before" for the value
   * before an increase). Used once by two phrasings and never for another value, it is the tool's own way
   * of asking for that value, not a word that grazes it.
   */
  valueWords: { param: string; word: string; value: string }[];
}

/** How many of a value's examples must use a word for it to stand for the value. */
const VALUE_WORD_EXAMPLES = 2;

const STOP = new Set(
  "a an the of to in into on at for from by with is are was what what's whats how much many me my i please and or than it this that as be will would have has had does did do can could should get".split(
    " ",
  ),
);
/**
 * The verbs requests open with ("write 3054 as hex") are in every kind of request: no phrase for a number
 * (an enum value may still be named by one: "make it bigger").
 */
const REQUEST_VERBS = new Set(
  "write give show tell make find put turn change set use convert calculate compute work figure need want know".split(
    " ",
  ),
);

const wordsOf = (text: string) =>
  [...text.toLowerCase().matchAll(/[a-z][a-z']*/g)].map((m) => ({
    word: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));

function add(map: Map<string, Set<string>>, key: string, word: string): void {
  if (!word) return;
  const set = map.get(key) ?? new Set<string>();
  set.add(word);
  map.set(key, set);
}

/** The spans where a value is written in a request, or none. */
function spansOf(query: string, value: unknown): { start: number; end: number }[] {
  if (typeof value === "number")
    return findNumbers(query).filter((n) => n.value === value || n.value === Math.abs(value));
  if (typeof value === "string" && /^-?\d+(?:\.\d+)?$/.test(value))
    return findNumbers(query).filter((n) => n.text.trim() === value);
  if (typeof value === "string" && value.length > 0) {
    const at = query.toLowerCase().indexOf(value.toLowerCase());
    return at >= 0 ? [{ start: at, end: at + value.length }] : [];
  }
  return [];
}

type Word = ReturnType<typeof wordsOf>[number];

/**
 * The run of words around `word` up to the values and numbers on either side ("as a percentage of" in "what
 * is 45 as a percentage of 180"): for a string value, one word alone is too loose to stand for it.
 */
function runAround(
  query: string,
  words: Word[],
  word: Word,
  covered: { start: number; end: number }[],
): string {
  const joined = (a: Word, b: Word) =>
    !/[\d]/.test(query.slice(a.end, b.start)) && !covered.some((c) => c.start < b.start && c.end > a.end);
  let from = words.indexOf(word);
  let to = from;
  while (from > 0 && joined(words[from - 1] as Word, words[from] as Word)) from--;
  while (to < words.length - 1 && joined(words[to] as Word, words[to + 1] as Word)) to++;
  return words
    .slice(from, to + 1)
    .map((w) => w.word)
    .join(" ");
}

export function learnFromExamples(calls: readonly ExampleCall[] | undefined): LearnedCues {
  const learned: LearnedCues = {
    numeric: new Set(),
    before: new Map(),
    after: new Map(),
    phrases: [],
    stringPhrases: [],
    valueWords: [],
  };
  /** Per parameter, value and word: the examples of that value that use the word. */
  const valueWordUses = new Map<string, { param: string; word: string; value: string; uses: Set<number> }>();
  const withQuery = (calls ?? []).filter(
    (c): c is ExampleCall & { query: string } => typeof c.query === "string",
  );
  for (const call of withQuery) {
    const words = wordsOf(call.query);
    const covered: { start: number; end: number }[] = [];
    const unwritten: [string, unknown][] = [];
    for (const [param, raw] of Object.entries(call.arguments)) {
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        // A number another argument already took where it is written ("4% … compounded quarterly", rate 4
        // and 4 periods a year) is written once: for this argument it is phrased in words.
        const spans = spansOf(call.query, value).filter(
          (span) => typeof value !== "number" || !covered.some((c) => c.start === span.start),
        );
        if (spans.length === 0) {
          // Strings are matched by their own words (enum values, names); numbers and flags need a phrase.
          unwritten.push([param, value]);
          continue;
        }
        if (typeof value === "string" && /^-?\d+$/.test(value)) learned.numeric.add(param);
        for (const span of spans) {
          covered.push(span);
          const before = words.filter((w) => w.end <= span.start).slice(-2);
          for (const w of before) if (!FILLER.has(w.word)) add(learned.before, param, w.word);
          const after = words.find((w) => w.start >= span.end);
          if (after && !FILLER.has(after.word)) add(learned.after, param, after.word);
        }
      }
    }
    // A value not written is phrased by the words only this example has among the tool's examples where
    // the parameter has another value or none.
    for (const [param, value] of unwritten) {
      // Only a contrast teaches a phrase: with no other example, every word of this one would be one.
      if (withQuery.length < 2) continue;
      // A zero the query does not state is the value's absence ("saving 200 a month": no starting sum),
      // which no word of the query names.
      if (value === 0) continue;
      const others = withQuery.filter(
        (c) => c !== call && JSON.stringify(c.arguments[param]) !== JSON.stringify(call.arguments[param]),
      );
      const elsewhere = new Set(others.flatMap((c) => wordsOf(c.query).map((w) => w.word)));
      for (const w of words) {
        if (STOP.has(w.word) || elsewhere.has(w.word) || w.word.length < 3) continue;
        if (covered.some((c) => w.start < c.end && w.end > c.start)) continue;
        if (typeof value === "string") {
          learned.stringPhrases.push({ param, phrase: runAround(call.query, words, w, covered), value });
          const key = JSON.stringify([param, value, w.word]);
          const entry = valueWordUses.get(key) ?? { param, word: w.word, value, uses: new Set<number>() };
          entry.uses.add(withQuery.indexOf(call));
          valueWordUses.set(key, entry);
        } else if (!REQUEST_VERBS.has(w.word)) learned.phrases.push({ param, phrase: w.word, value });
      }
    }
  }
  for (const { param, word, value, uses } of valueWordUses.values())
    if (uses.size >= VALUE_WORD_EXAMPLES) learned.valueWords.push({ param, word, value });
  return learned;
}
