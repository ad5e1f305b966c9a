// What a request asks for, in its own words: "the acceleration" of "What is the acceleration a ball will
// reach…", "the profit margin" of "Calculate the profit margin of a company…". A tool that names none of
// those words computes something else, however well its parameters fit the values (a function for the
// maximum height asked for an acceleration): a doubt for a bare tool's call (bare-confidence.ts).

/** The verb or question that opens a request for a value, and the article after it. */
const LEAD =
  /^(?:please\s+|can you\s+|could you\s+|i need to\s+|i want to\s+)*(?:what(?:'s|\s+is|\s+are|\s+was|\s+were|\s+will\s+be)|calculate|compute|find|get|determine|estimate|tell me|give me|show me|how\s+(?:many|much)|predict|identify|retrieve|fetch|look up|search for)\s+(?:me\s+)?(?:the\s+|a\s+|an\s+|all\s+(?:the\s+)?)?/i;

/** Words that end the asked-for phrase: prepositions, conjunctions, and the start of a clause. */
const BOUNDARY = new Set(
  "of for with in at on by from to given if when that which between under over after before using per and or is are was were will would does do did can could should has have a an the".split(
    " ",
  ),
);

/** Words that ask for any value at all, not one kind of value. */
const GENERIC = new Set(
  "value values result results number numbers amount total information info details data list some current latest this that these those".split(
    " ",
  ),
);

/** Words that ask for a measure of something else: what follows "of" says which ("the rate of return"). */
const RELATIONAL = new Set(
  "rate rates ratio percentage probability proportion share level degree frequency cost price".split(" "),
);

/** The content words of the phrase the request asks for, at most three, lower case. */
export function askedForWords(query: string): string[] {
  const lead = LEAD.exec(query.trimStart());
  if (!lead) return [];
  const words: string[] = [];
  let measure = false;
  for (const word of query
    .trimStart()
    .slice(lead[0].length, lead[0].length + 80)
    .split(/\s+/)) {
    const clean = word.toLowerCase().replace(/['’]s$/, "");
    // A value ("0xCAFE", "v2") is not what is asked for.
    if (/\d/.test(clean)) continue;
    const letters = clean.replace(/[^\p{L}-]/gu, "");
    if (letters === "of" && measure) {
      measure = false;
      continue;
    }
    if (!letters || BOUNDARY.has(letters)) break;
    measure = words.length === 0 && RELATIONAL.has(letters);
    if (letters.length >= 4 && !GENERIC.has(letters)) words.push(letters);
    if (words.length === 3 || /[,.;:?!]$/.test(word)) break;
  }
  return words;
}

/** Whether the tool's own words (its name, description and parameter names) name every asked-for word. */
export function namesAskedFor(asked: readonly string[], toolWords: string): boolean {
  if (asked.length === 0) return true;
  const own = new Set(
    toolWords
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((w) => w.length >= 3),
  );
  // Words share a stem when they share their first five letters ("compounded", "compound").
  const stem = (w: string) => w.slice(0, 5);
  const stems = new Set([...own].map(stem));
  return asked.every((w) => own.has(w) || stems.has(stem(w)));
}
