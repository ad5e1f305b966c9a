// The phrases around a number that say what it is for: "a gauge pressure of 2", "18 inch overhangs".

/**
 * The words of the noun phrase a number is stated for: "a gauge pressure of 2" (gauge, pressure), "the
 * initial speed is 10". Only up to three words before "of", "is", "=" or ":" right before the number.
 */
export function phraseNaming(text: string, start: number): string[] {
  const before = text.slice(Math.max(0, start - 60), start).toLowerCase();
  const m =
    /((?:[a-z]+\s+){1,3})(?:of|is|=|:|equal to|equals)\s*(?:about\s+|approximately\s+|around\s+)?[$€£]?$/.exec(
      before,
    );
  return m?.[1]?.trim().split(/\s+/) ?? [];
}

/**
 * The words of the phrase right after a number, its unit included, up to a joining word or a mark: "18 inch
 * overhangs" (inch, overhangs), "0.15 M acetic acid and …" (m, acetic, acid).
 */
export function phraseAfter(text: string, end: number): string[] {
  const phrase =
    /^\s*((?:[a-zA-Z][a-zA-Z0-9]*(?:-[a-zA-Z]+)?\s*){1,3})/.exec(text.slice(end, end + 40))?.[1] ?? "";
  const words: string[] = [];
  for (const word of phrase.toLowerCase().split(/\s+/).filter(Boolean)) {
    if (PHRASE_END.test(word)) break;
    words.push(word);
  }
  return words;
}

const PHRASE_END = /^(?:and|or|with|for|at|to|of|in|on|by|per|from|is|are|was|were|each|a|an|the)$/;
