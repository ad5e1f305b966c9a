// Values known by their shape alone: versions ("1.2.3"), colours ("#ff8800", "rgb(1,2,3)", and a CSS
// colour's name where the request talks of colours), arithmetic
// expressions ("3 * (4 + 5)"), cron expressions ("*/5 * * * *") and identifiers ("myVariableName",
// "user_id", "%20"-escaped text). Each pattern starts only where its shape starts and has bounded parts,
// so a long request is scanned once.
import { createRequire } from "node:module";
import { allMatches, type Mention } from "./span.ts";

// color-name is the CSS Color Module's list of named colours (148), the one color-convert reads; it ships
// no types.
const CSS_COLOURS = Object.keys(
  createRequire(import.meta.url)("color-name") as Record<string, [number, number, number]>,
);
/** Where a request talks of colours or their formats: "coral", "navy" and "tan" are words as often. */
const TALKS_OF_COLOURS = /\b(?:colou?rs?|hex|rgba?|hsla?|css|shade)\b/i;
const CSS_COLOUR_NAME = new RegExp(`\\b(?:${CSS_COLOURS.join("|")})\\b`, "gi");

export interface Shapes {
  versions: Mention[];
  colors: Mention[];
  expressions: Mention[];
  crons: Mention[];
  tokens: Mention[];
}

const EXPRESSION_RUN =
  /(?:[-(]?[\d.(]|\b(?:sqrt|abs|sin|cos|tan|log|ln|exp|floor|ceil|round)(?=\s*\())(?:[\d\s.+\-*/^()%!×÷]|\b(?:sqrt|abs|sin|cos|tan|log|ln|exp|floor|ceil|round|pi)\b)*/g;

/**
 * Expression-shaped runs, each cut after its last digit, ")" or "!" (with at least one character after
 * where it starts). The cut is made here, not by a final `[\d)!]` in the pattern: a run with none, such as
 * 100,000 "(", made the pattern retry every start of the run to its end, O(n²): minutes on a busy machine.
 */
function expressions(text: string): Mention[] {
  const out: Mention[] = [];
  for (const match of text.matchAll(EXPRESSION_RUN)) {
    const run = match[0];
    let end = run.length;
    while (end > 0 && !/[\d)!]/.test(run[end - 1] as string)) end--;
    const opening = /^[a-z]/.test(run) ? (/^[a-z]+/.exec(run)?.[0].length ?? 0) : run.startsWith("-") ? 2 : 1;
    if (end <= opening) continue;
    out.push({ text: run.slice(0, end), start: match.index, end: match.index + end });
  }
  return out;
}

/**
 * Colours written as #hex, rgb() or hsl(); failing those, CSS colours named where the request talks of
 * colours. Names beside a written colour are choices about it ("text on #1e90ff, black or white?").
 */
function colours(text: string): Mention[] {
  const written = allMatches(text, /#[0-9a-fA-F]{3,8}\b|\b(?:rgb|hsl)a?\([^)]*\)/g);
  if (written.length > 0 || !TALKS_OF_COLOURS.test(text)) return written;
  return allMatches(text, CSS_COLOUR_NAME);
}

export function findShapes(text: string): Shapes {
  return {
    versions: allMatches(
      text,
      // A version may end a sentence ("… to 0.5.0. Is that …"): a period after it is no fourth part.
      /(?<![\w.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?(?:\+[0-9A-Za-z.-]+)?(?!\w|\.\w)/g,
    ),
    colors: colours(text),
    // "sqrt(144) + 3^2": a function name belongs to the expression, or only "(144) + 3^2" is left of it.
    expressions: expressions(text).filter(
      (m) =>
        /\d\s*[-+*/^×÷]\s*[\d(a-z]|\)\s*[-+*/^×÷]|\d!|^[a-z]+\s*\(/.test(m.text) &&
        !/^\d{4}-\d{2}-\d{2}$/.test(m.text.trim()),
    ),
    // A field ends with a digit or a star: "3, 5, 3, 9, 5" is a list of numbers, not a cron line.
    crons: allMatches(text, /(?<!\S)((?:[\d*](?:[\d*/,-]*[\d*])?\s+){4}[\d*][\d*/,A-Za-z-]*)(?!\S)/g, 1),
    tokens: allMatches(
      text,
      // camelCase, snake_case, and PascalCase of three humps or after an acronym ("UserProfileCard",
      // "XMLHttpRequest"); two humps are as often a brand's name ("PayPal", "GitHub").
      /(?<![\w%])(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,}|[A-Z]{2,}[a-z0-9]+(?:[A-Z][a-z0-9]+)+)(?![\w%])|(?<!\S)\S*%[0-9A-Fa-f]{2}\S*/g,
    )
      .concat(slugsAndCredentials(text))
      // "api_user" inside "api_user:Winter#2025" is part of the one value.
      .sort((a, b) => a.start - b.start || b.end - a.end)
      .filter(outermost()),
  };
}

/**
 * A filter, over mentions sorted by start and then longest first, that keeps those no other span holds: one
 * pass with the furthest end so far, not a search of every other mention for each (a long message has
 * thousands). A mention of the same span as the one before shares its fate.
 */
function outermost(): (mention: Mention) => boolean {
  let reach = -1;
  let previous: { mention: Mention; kept: boolean } | undefined;
  return (mention) => {
    const same = previous?.mention.start === mention.start && previous.mention.end === mention.end;
    const kept = same && previous ? previous.kept : reach < mention.end;
    reach = Math.max(reach, mention.end);
    previous = { mention, kept };
    return kept;
  };
}

/**
 * Unquoted data an agent passes as one word: a hyphenated name with a digit or of three parts or more
 * ("invoice-batch-0425", "correct-horse-battery-staple", "release-v3"; not "full-time" or "20-character"),
 * dotted parts and a file's extension included ("release-4.2.0", "nightly-2025-11-30.tar"),
 * and a user and secret joined by a colon ("svc-reporting:Tr4ck!ng"; not a time or a ratio).
 */
function slugsAndCredentials(text: string): Mention[] {
  const slugs = allMatches(
    text,
    /(?<![\w@./:-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)+(?![\w@/:-]|\.\w)/g,
  ).filter(
    (m) =>
      (/\d/.test(m.text) || m.text.split("-").length >= 3) &&
      // A host name ("api-eu.example.com", "my-site.io") is a domain's, not a file's.
      !/\.[A-Za-z][A-Za-z0-9-]*$/.test(
        m.text.replace(/\.(?:tar|gz|zip|bin|txt|csv|json|log|png|jpg|pdf)$/i, ""),
      ) &&
      // A verb ("base64-encode") or a standard's name ("sha-256", "utf-8") is no data.
      !/(?:^|-)(?:encode|decode|encoded|decoded|hash|convert)(?:-|$)/i.test(m.text) &&
      !/^[A-Za-z]{1,4}-\d+$/.test(m.text),
  );
  // One run of non-space characters, its closing punctuation trimmed after: no two stars to backtrack over.
  const credentials = allMatches(text, /(?<!\S)[A-Za-z][\w.-]*:(?!\/\/)[^\s"'“”]+/g)
    .map((c) => ({ ...c, text: c.text.replace(/[.,;!?]+$/, "") }))
    .map((c) => ({ ...c, end: c.start + c.text.length }))
    .filter((c) => /:.*[A-Za-z0-9]/.test(c.text));
  return [...slugs, ...credentials.filter((c) => !slugs.some((s) => s.start >= c.start && s.end <= c.end))];
}
