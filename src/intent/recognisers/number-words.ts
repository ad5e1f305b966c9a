// Numbers written in words ("one", "twenty five", "three hundred", "a dozen"). Hand-written: the npm
// readers (words-to-numbers) pull in babel-runtime and a fuzzy matcher for what is a table of 30 words.
import type { Mention } from "./span.ts";

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };
const SINGLE: Record<string, number> = { dozen: 12, half: 0.5 };

/** The value of one number word up to ninety ("twelve", "forty"), or undefined. */
export function numberWord(word: string): number | undefined {
  const w = word.toLowerCase();
  return UNITS[w] ?? TENS[w];
}

export interface WordNumber extends Mention {
  value: number;
}

/** Each run of number words, read as one value ("two hundred and five" is 205). */
export function findNumberWords(text: string): WordNumber[] {
  const out: WordNumber[] = [];
  const word = /[A-Za-z]+/g;
  let run: { start: number; end: number; total: number; current: number } | undefined;
  const close = () => {
    if (run)
      out.push({
        start: run.start,
        end: run.end,
        text: text.slice(run.start, run.end),
        value: run.total + run.current,
      });
    run = undefined;
  };
  let lastEnd = -1;
  let skipTo = -1;
  for (const match of text.matchAll(word)) {
    const w = match[0].toLowerCase();
    const start = match.index;
    if (start < skipTo) continue;
    const end = start + match[0].length;
    const gap = lastEnd < 0 ? "" : text.slice(lastEnd, start);
    const joined = run && /^(?:\s+|\s*-\s*|\s+and\s+)$/.test(gap);
    if (run && !joined) close();
    // "and" between number words joins them ("two hundred and five"); it is skipped by the gap test.
    if (w === "and" && run) continue;
    // "two and a half", "three and a quarter": the fraction joins the run.
    const fraction =
      w === "a" && run && /^\s+and\s+$/.test(gap) ? /^\s+(half|quarter)\b/i.exec(text.slice(end)) : null;
    if (fraction && run) {
      run.current += fraction[1]?.toLowerCase() === "half" ? 0.5 : 0.25;
      run.end = end + fraction[0].length;
      lastEnd = skipTo = run.end;
      continue;
    }
    const unit = UNITS[w] ?? TENS[w];
    const scale = SCALES[w];
    const single = SINGLE[w];
    if (unit !== undefined) {
      if (!run) run = { start, end, total: 0, current: 0 };
      run.current += unit;
      run.end = end;
    } else if (scale !== undefined && run) {
      run.current = (run.current || 1) * scale;
      if (scale >= 1000) {
        run.total += run.current;
        run.current = 0;
      }
      run.end = end;
    } else if (
      (scale !== undefined || single !== undefined) &&
      /\ba\s+$/i.test(text.slice(Math.max(0, start - 3), start)) &&
      // "a half-life", "a dozen-egg carton": the word is part of a compound, not a count.
      text[end] !== "-"
    ) {
      // "a hundred", "a dozen", "a half": the article counts as one.
      out.push({ start: start - 2, end, text: text.slice(start - 2, end), value: scale ?? single ?? 0 });
    } else {
      close();
    }
    lastEnd = end;
  }
  close();
  return out.filter((n) => !isPronoun(text, n));
}

/** Words a number labels ("the number one", "page one"): "one" after them is a number. */
const LABELLED =
  /^(?:number|digit|figure|page|chapter|level|step|stage|version|item|day|week|month|year|room|gate|platform|line|row|column|size|round|game|season|episode|part|track)$/i;

/**
 * "One" that stands for a thing named before ("a cold one at 300 K", "the other one", "which one"), not a
 * number: after a determiner and one describing word, or right after a determiner that is no article
 * ("a one hour meeting" keeps its number).
 */
function isPronoun(text: string, n: WordNumber): boolean {
  if (n.text.toLowerCase() !== "one") return false;
  const before = text.slice(Math.max(0, n.start - 40), n.start);
  const described = /\b(?:a|an|the|this|that|each|every|another|any|no)\s+([A-Za-z]+)\s+$/i.exec(before)?.[1];
  return (
    (described !== undefined && !LABELLED.test(described)) ||
    /\b(?:this|that|which|each|every|another|any)\s+$/i.test(before)
  );
}
