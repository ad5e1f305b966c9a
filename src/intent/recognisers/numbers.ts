// Numbers in a request, in digits or in words, with what the words around them say: the word before and
// after (cues for a parameter), a percent sign, a currency. A letter after the digits ("5m", "300K") is a
// unit, not a multiplier, unless the number is money ("$5m", "300k euros"); "million" always multiplies.
import { findNumberWords } from "./number-words.ts";
import { type Mention, wordAfter, wordBefore } from "./span.ts";

export interface NumberMention extends Mention {
  value: number;
  /** The word right after the number ("years", "people", "percent"), lower case. */
  next: string;
  /** The word right before it ("from", "to", "by"), lower case. */
  previous: string;
  percent: boolean;
  money: boolean;
  /** Written in words ("twelve"): weaker evidence than digits ("one" is often no quantity). */
  words: boolean;
}

const CURRENCY_WORD = /^(?:usd|eur|gbp|jpy|chf|cad|aud|inr|dollars?|euros?|pounds?|bucks|quid|yen|rupees?)$/;
/** Nouns that make a number money, for reading its letter as a multiplier ("a 300k loan"). */
const MONEY_NOUN =
  /^(?:loan|mortgage|salary|budget|revenue|price|income|deposit|investment|debt|bonus|raise|rent)s?$/;
const MONEY_SCALE: Record<string, number> = { k: 1e3, m: 1e6, mm: 1e6, bn: 1e9, b: 1e9 };
const WORD_SCALE: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/** A price in cents after the words that state one ("came to 78.40", "the total is 112.35"). */
const PRICE_BEFORE =
  /\b(?:came|comes|coming)\s+(?:to|out\s+(?:at|to))\s*$|\b(?:total|bill|tab|price|cost|costs|charge)\s+(?:is|was|of|came to)?\s*$/i;

function pricedCents(text: string, m: Mention): boolean {
  return (
    /^\d[\d,]*\.\d{2}$/.test(m.text) && PRICE_BEFORE.test(text.slice(Math.max(0, m.start - 30), m.start))
  );
}

function describe(
  text: string,
  m: Mention & { value: number },
  words: boolean,
  currency: boolean,
  percentSign = false,
): NumberMention {
  const next = wordAfter(text, m.end);
  const percent = percentSign || next === "percent" || next === "pct";
  return {
    ...m,
    next,
    previous: wordBefore(text, m.start),
    percent,
    money: currency || CURRENCY_WORD.test(next) || pricedCents(text, m),
    words,
  };
}

const DECIMAL_COMMA = /(?<![\d.,])([€$£¥]\s?)?(\d{1,6}),(\d{2})(?![\d,.])/g;
const CURRENCY_AFTER = /^\s*(?:[€$£¥]|(?:eur|euros?|usd|gbp|chf|sek|nok|dkk|pln|kr|zł)\b)/i;

/** "minus" or "negative" right before a number. */
const SIGN_WORD = /((?:minus|negative)\s+)$/i;
/** What before the sign word makes it an operation: a number, a bracket, an operator ("10 minus 5"). */
const OPERAND_BEFORE = /(?:[\d)\]%]|[-+*/^=]|\b(?:and|plus|times|minus))\s*$/i;

export function findNumbers(text: string): NumberMention[] {
  const out: NumberMention[] = [];
  // A number joined to the word before it by a hyphen names something ("utf-8", "sha-256", "covid-19").
  const pattern =
    /(?<![\w.#^])(?<![A-Za-z]-)([$€£¥])?(-?\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]?\d+)?)(?:\s?(k|mm|m|bn|b)\b|\s+(thousand|million|billion|trillion)\b)?(\s*%)?/gi;
  // A decimal comma in an amount of money ("96,80 €", "€12,50"): one amount, not the numbers 96 and 80.
  for (const match of text.matchAll(DECIMAL_COMMA)) {
    const [whole, symbol = "", units = "", cents = ""] = match;
    const span = {
      start: match.index,
      end: match.index + whole.length,
      text: whole,
      value: Number(`${units}.${cents}`),
    };
    if (symbol || CURRENCY_AFTER.test(text.slice(span.end))) out.push(describe(text, span, false, true));
  }
  const decimal = (start: number, end: number) => out.some((n) => start < n.end && end > n.start);
  for (const match of text.matchAll(pattern)) {
    if (decimal(match.index, match.index + match[0].length)) continue;
    const [whole, symbol, digits = "", letter, scaleWord, percentSign] = match;
    // "2 pi", "3π": a multiple of a constant, not the number written.
    if (/^\s*(?:pi\b|π)/i.test(text.slice(match.index + whole.length))) continue;
    let value = Number(digits.replace(/,/g, ""));
    const after = wordAfter(text, match.index + whole.length);
    const money = Boolean(symbol) || CURRENCY_WORD.test(after);
    let end = match.index + whole.length;
    if (letter) {
      const factor = MONEY_SCALE[letter.toLowerCase()];
      // Only money takes a letter as a multiplier: "5m" and "a 30m walk" are metres or minutes, "300K"
      // kelvin. A lower-case "k" is thousands unless a unit follows ("5k run" is 5 km, read as 5).
      const thousands = letter === "k" && !/^(?:run|race|walk|m|km)$/.test(after);
      if ((money || MONEY_NOUN.test(after) || thousands || letter.toLowerCase() === "bn") && factor)
        value *= factor;
      else end = match.index + (symbol?.length ?? 0) + digits.length;
    }
    if (scaleWord) value *= WORD_SCALE[scaleWord.toLowerCase()] ?? 1;
    // "2 and a half cups": the fraction joins the digits, as it joins a number in words.
    const fraction =
      letter || scaleWord || percentSign ? null : /^\s+and\s+a\s+(half|quarter)\b/i.exec(text.slice(end));
    if (fraction) {
      value += fraction[1]?.toLowerCase() === "half" ? 0.5 : 0.25;
      end += fraction[0].length;
    }
    // "minus 5°C", "negative 12": a sign in words, unless a number or a bracket before it makes it a
    // subtraction ("10 minus 5").
    const sign = symbol
      ? undefined
      : SIGN_WORD.exec(text.slice(Math.max(0, match.index - 12), match.index))?.[1];
    const start =
      sign && !OPERAND_BEFORE.test(text.slice(0, match.index - sign.length))
        ? match.index - sign.length
        : match.index;
    const signed = start < match.index && value > 0 ? -value : value;
    const span = { start, end, text: text.slice(start, end), value: signed };
    out.push(describe(text, span, false, money, Boolean(percentSign) && !letter));
  }
  // Integers with a base prefix ("0xff", "0b1010", "0o17"): one number, whose text is the literal.
  // Underscores may group the digits ("0b1011_0110").
  for (const match of text.matchAll(
    /(?<![\w.])0(?:x[0-9a-f]+(?:_[0-9a-f]+)*|b[01]+(?:_[01]+)*|o[0-7]+(?:_[0-7]+)*)(?![\w.])/gi,
  )) {
    const literal = match[0];
    const value = Number(literal.toLowerCase().replace(/_/g, ""));
    const at = out.findIndex((n) => n.start === match.index);
    if (at >= 0) out.splice(at, 1);
    out.push(
      describe(
        text,
        { start: match.index, end: match.index + literal.length, text: literal, value },
        false,
        false,
      ),
    );
  }
  const taken = (s: number, e: number) => out.some((n) => s < n.end && e > n.start);
  for (const w of findNumberWords(text)) {
    if (taken(w.start, w.end)) continue;
    out.push(describe(text, w, true, false));
  }
  return out.sort((a, b) => a.start - b.start);
}
