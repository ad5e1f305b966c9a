// Values known by their shape alone: versions ("1.2.3"), colours ("#ff8800", "rgb(1,2,3)"), arithmetic
// expressions ("3 * (4 + 5)"), cron expressions ("*/5 * * * *") and identifiers ("myVariableName",
// "user_id", "%20"-escaped text). Each pattern starts only where its shape starts and has bounded parts,
// so a long request is scanned once.
import { allMatches, type Mention } from "./span.ts";

export interface Shapes {
  versions: Mention[];
  colors: Mention[];
  expressions: Mention[];
  crons: Mention[];
  tokens: Mention[];
}

export function findShapes(text: string): Shapes {
  return {
    versions: allMatches(
      text,
      /(?<![\w.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?(?:\+[0-9A-Za-z.-]+)?(?![\w.])/g,
    ),
    colors: allMatches(text, /#[0-9a-fA-F]{3,8}\b|\b(?:rgb|hsl)a?\([^)]*\)/g),
    // "sqrt(144) + 3^2": a function name before a parenthesis belongs to the expression.
    // "sqrt(144) + 3^2": a function name belongs to the expression, or only "(144) + 3^2" is left of it.
    expressions: allMatches(
      text,
      /(?:[-(]?[\d.(]|\b(?:sqrt|abs|sin|cos|tan|log|ln|exp|floor|ceil|round)(?=\s*\())(?:[\d\s.+\-*/^()%!×÷]|\b(?:sqrt|abs|sin|cos|tan|log|ln|exp|floor|ceil|round|pi)\b)*[\d)!]/g,
    ).filter(
      (m) =>
        /\d\s*[-+*/^×÷]\s*[\d(a-z]|\)\s*[-+*/^×÷]|\d!|^[a-z]+\s*\(/.test(m.text) &&
        !/^\d{4}-\d{2}-\d{2}$/.test(m.text.trim()),
    ),
    crons: allMatches(text, /(?<!\S)((?:[\d*][\d*/,-]*\s+){4}[\d*][\d*/,A-Za-z-]*)(?!\S)/g, 1),
    tokens: allMatches(
      text,
      /(?<![\w%])(?:[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w%])|(?<!\S)\S*%[0-9A-Fa-f]{2}\S*/g,
    ),
  };
}
