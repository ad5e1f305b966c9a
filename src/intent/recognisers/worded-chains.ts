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

interface Operand {
  value: string;
  end: number;
}

/** The number that starts at `at` (after spaces): digits, or words with "point" decimals. */
function operandAt(text: string, at: number, words: ReturnType<typeof findNumberWords>): Operand | undefined {
  const skip = /^\s*/.exec(text.slice(at))?.[0].length ?? 0;
  const start = at + skip;
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
  const skip = /^\s*/.exec(text.slice(at))?.[0].length ?? 0;
  const rest = text.slice(at + skip);
  for (const [pattern, fn] of PREFIX) {
    const match = pattern.exec(rest);
    if (!match) continue;
    const inner = termAt(text, at + skip + match[0].length, words);
    return inner ? { value: `${fn}(${inner.value})`, end: inner.end } : undefined;
  }
  const operand = operandAt(text, at, words);
  if (!operand) return undefined;
  let { value, end } = operand;
  for (;;) {
    const after = /^\s*/.exec(text.slice(end))?.[0].length ?? 0;
    const post = POSTFIX.find(([pattern]) => pattern.test(text.slice(end + after)));
    if (!post) return { value, end };
    const match = post[0].exec(text.slice(end + after));
    value = `${value}${post[1]}`;
    end = end + after + (match?.[0].length ?? 0);
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
      const skip = /^\s*/.exec(text.slice(end))?.[0].length ?? 0;
      const infix = INFIX.find(([pattern]) => pattern.test(text.slice(end + skip)));
      if (!infix) break;
      const length = infix[0].exec(text.slice(end + skip))?.[0].length ?? 0;
      const next = termAt(text, end + skip + length, words);
      if (!next) break;
      expression = `${expression} ${infix[1]} ${next.value}`;
      end = next.end;
      operators++;
    }
    // "and" alone joins lists more often than it adds: a chain of "and"s only is no sum.
    const onlyAnd = !/[-*/^]|\b(?:sqrt|cbrt)\b|!/.test(expression) && /\band\b/i.test(text.slice(start, end));
    if (operators === 0 || onlyAnd) continue;
    const skipped = /^\s*/.exec(text.slice(start))?.[0].length ?? 0;
    found.push({ text: text.slice(start + skipped, end), start: start + skipped, end, value: expression });
  }
  return found;
}
