// Arithmetic written out in words, as a chain: "twelve point five times eight minus the cube root of
// twenty seven" is 12.5 * 8 - cbrt(27). The request's numbers (digits or words, "point five" as decimals)
// and operator words are read left to right; a run of at least two operands joined by operators is one
// expression. Written by hand: no library reads arithmetic in English words, and the grammar is small.
import { findNumberWords } from "./number-words.ts";
import type { WordedExpression } from "./worded-expressions.ts";

/** Operator words and the symbols they stand for; prefix functions apply to the operand after them. */
const INFIX: [RegExp, string][] = [
  [/^(?:plus|added to|and)\b/i, "+"],
  [/^minus\b/i, "-"],
  [/^(?:times|multiplied by|x)\b/i, "*"],
  [/^(?:divided by|over)\b/i, "/"],
  [/^(?:to the power of|raised to(?: the power of)?)\b/i, "^"],
];
const PREFIX: [RegExp, string][] = [
  [/^(?:the\s+)?square root of\b/i, "sqrt"],
  [/^(?:the\s+)?cube root of\b/i, "cbrt"],
];
const POSTFIX: [RegExp, string][] = [
  [/^squared\b/i, "^2"],
  [/^cubed\b/i, "^3"],
  [/^factorial\b/i, "!"],
];

/** Where the text continues after the spaces at `at`. */
const pastSpaces = (text: string, at: number) => at + (/^\s*/.exec(text.slice(at))?.[0].length ?? 0);

/** The first of `forms` that matches at `at`: its symbols and where the text continues after it. */
function formAt(
  forms: [RegExp, string][],
  text: string,
  at: number,
): { symbols: string; end: number } | undefined {
  const rest = text.slice(at);
  for (const [pattern, symbols] of forms) {
    const match = pattern.exec(rest);
    if (match) return { symbols, end: at + match[0].length };
  }
  return undefined;
}

interface Operand {
  value: string;
  end: number;
}

/** The number that starts at `at` (after spaces): digits, or words with "point" decimals. */
function operandAt(text: string, at: number, words: ReturnType<typeof findNumberWords>): Operand | undefined {
  const start = pastSpaces(text, at);
  const digits = /^-?\d+(?:\.\d+)?/.exec(text.slice(start));
  if (digits) return { value: digits[0], end: start + digits[0].length };
  const word = words.find((w) => w.start === start);
  if (!word) return undefined;
  // "twelve point five": the digits after "point" are the decimals.
  const point = /^\s+point\s+/i.exec(text.slice(word.end));
  const decimals = point
    ? words.find((w) => w.start === word.end + point[0].length && w.value < 10)
    : undefined;
  if (point && decimals) return { value: `${word.value}.${decimals.value}`, end: decimals.end };
  return { value: String(word.value), end: word.end };
}

/** A term: an operand with its prefix functions and postfix operators. */
function termAt(text: string, at: number, words: ReturnType<typeof findNumberWords>): Operand | undefined {
  const prefix = formAt(PREFIX, text, pastSpaces(text, at));
  if (prefix) {
    const inner = termAt(text, prefix.end, words);
    return inner ? { value: `${prefix.symbols}(${inner.value})`, end: inner.end } : undefined;
  }
  const operand = operandAt(text, at, words);
  if (!operand) return undefined;
  let { value, end } = operand;
  for (;;) {
    const post = formAt(POSTFIX, text, pastSpaces(text, end));
    if (!post) return { value, end };
    value = `${value}${post.symbols}`;
    end = post.end;
  }
}

/** Chains of two operands or more joined by operator words, each as the expression it means. */
export function findWordedChains(text: string): WordedExpression[] {
  const words = findNumberWords(text);
  const found: WordedExpression[] = [];
  const starts = [...text.matchAll(/(?<![\w.])(?:-?\d|[a-z])/gi)].map((m) => m.index);
  for (const start of starts) {
    if (found.some((e) => start < e.end)) continue;
    const first = termAt(text, start, words);
    if (!first) continue;
    let expression = first.value;
    let end = first.end;
    let operators = 0;
    for (;;) {
      // ", times 7" after a comma works on everything before it: "1440 divided by 36, times 7".
      const comma = /^\s*,\s*(?:then\s+)?(?!and\b)/i.exec(text.slice(end));
      const at = comma ? end + comma[0].length : pastSpaces(text, end);
      const infix = formAt(INFIX, text, at);
      const next = infix ? termAt(text, infix.end, words) : undefined;
      if (!infix || !next) break;
      expression = comma
        ? `(${expression}) ${infix.symbols} ${next.value}`
        : `${expression} ${infix.symbols} ${next.value}`;
      end = next.end;
      operators++;
    }
    // "and" alone joins lists more often than it adds: a chain of "and"s only is no sum.
    const onlyAnd = !/[-*/^]|\b(?:sqrt|cbrt)\b|!/.test(expression) && /\band\b/i.test(text.slice(start, end));
    if (operators === 0 || onlyAnd) continue;
    const from = pastSpaces(text, start);
    found.push({ text: text.slice(from, end), start: from, end, value: expression });
  }
  return found;
}
