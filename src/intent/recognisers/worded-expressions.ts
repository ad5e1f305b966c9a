// Arithmetic written in words ("2 to the power of 10", "9 squared", "the square root of 1764", "12 times
// 4", "7 factorial") as the expression it means, with its span. An expression parameter takes the symbols ("2^10"); the
// request's words alone left it empty while a tool that reads bare numbers ran on them instead.
import type { Mention } from "./span.ts";

export interface WordedExpression extends Mention {
  /** The expression in symbols. */
  value: string;
}

const N = String.raw`(-?\d+(?:\.\d+)?)`;

/** Each form and the symbols it stands for; a number followed by "%" is a rate, not an operand. */
const FORMS: [RegExp, (a: string, b: string) => string][] = [
  [
    new RegExp(
      String.raw`${N}\s+(?:to\s+the\s+power\s+of|raised\s+to(?:\s+the\s+power\s+of)?)\s+${N}(?![\d.%])`,
      "gi",
    ),
    (a, b) => `${a}^${b}`,
  ],
  [new RegExp(String.raw`${N}\s+squared\b`, "gi"), (a) => `${a}^2`],
  [new RegExp(String.raw`${N}\s+cubed\b`, "gi"), (a) => `${a}^3`],
  [/(?<![\d.])(\d+)\s+factorial\b/gi, (a) => `${a}!`],
  [/\b(?:the\s+)?factorial\s+of\s+(\d+)(?![\d.%])/gi, (a) => `${a}!`],
  [new RegExp(String.raw`\b(?:the\s+)?square\s+root\s+of\s+${N}(?![\d.%])`, "gi"), (a) => `sqrt(${a})`],
  [new RegExp(String.raw`\b(?:the\s+)?cube\s+root\s+of\s+${N}(?![\d.%])`, "gi"), (a) => `cbrt(${a})`],
  [new RegExp(String.raw`${N}\s+(?:times|multiplied\s+by)\s+${N}(?![\d.%])`, "gi"), (a, b) => `${a} * ${b}`],
  [new RegExp(String.raw`${N}\s+divided\s+by\s+${N}(?![\d.%])`, "gi"), (a, b) => `${a} / ${b}`],
];

/** More arithmetic right before or after: the words are part of a longer expression, read none of it. */
const MORE_AFTER =
  /^\s*(?:[-+*/^×÷]|plus\b|minus\b|times\b|divided\b|multiplied\b|over\b|squared\b|cubed\b|factorial\b)/i;
const MORE_BEFORE = /(?:[-+*/^×÷]|\bplus|\bminus|\btimes|\bby|\bover)\s*$/i;

export function findWordedExpressions(text: string): WordedExpression[] {
  const found: WordedExpression[] = [];
  for (const [pattern, symbols] of FORMS)
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (found.some((e) => start < e.end && end > e.start)) continue;
      if (
        MORE_AFTER.test(text.slice(end, end + 20)) ||
        MORE_BEFORE.test(text.slice(Math.max(0, start - 20), start))
      )
        continue;
      found.push({ text: match[0], start, end, value: symbols(match[1] ?? "", match[2] ?? "") });
    }
  return found.sort((a, b) => a.start - b.start);
}
