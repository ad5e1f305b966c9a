// A number written in a prefixed form of the unit a parameter's description gives it in: "100µF" to a
// capacitance "in farads (F)" is 0.0001, "5 kilometers" to a distance "in meters" is 5000. Hand-written:
// the unit libraries convert between units they know by name, while here the base unit is whatever the
// description says, so only the SI prefix is read.
import type { Param } from "./filler.ts";
import type { NumberMention } from "./mentions.ts";

/** SI prefix symbols; case matters ("m" is milli, "M" mega). */
const SYMBOL: Readonly<Record<string, number>> = {
  p: 1e-12,
  n: 1e-9,
  µ: 1e-6,
  μ: 1e-6,
  u: 1e-6,
  m: 1e-3,
  c: 1e-2,
  k: 1e3,
  M: 1e6,
  G: 1e9,
};

const WORD: Readonly<Record<string, number>> = {
  pico: 1e-12,
  nano: 1e-9,
  micro: 1e-6,
  milli: 1e-3,
  centi: 1e-2,
  kilo: 1e3,
  mega: 1e6,
  giga: 1e9,
};

const SYMBOL_AFTER = /^\s?([pnµμumckMG])([A-Za-zΩ]{1,2})(?![\w/^²³])/;
const WORD_AFTER = /^\s?(pico|nano|micro|milli|centi|kilo|mega|giga)-?([a-z]{3,})\b/i;

/** The factor that takes the number to the parameter's described unit; 1 when it is in no prefixed form of it. */
export function prefixFactor(text: string, n: NumberMention, param: Param): number {
  const after = text.slice(n.end, n.end + 24);
  const words = new Set(param.hint.split(/[^\p{L}]+/u));
  const symbol = SYMBOL_AFTER.exec(after);
  if (symbol) {
    const [, prefix = "", base = ""] = symbol;
    // The base unit's symbol as the description writes it, in parentheses: "in farads (F)".
    const described = param.hint.includes(`(${base.toLowerCase()})`);
    const prefixed = param.hint.includes(`(${(prefix + base).toLowerCase()})`);
    if (described && !prefixed) return SYMBOL[prefix] ?? 1;
  }
  const word = WORD_AFTER.exec(after);
  if (word) {
    const [, prefix = "", base = ""] = word;
    const unit = base.toLowerCase();
    if (words.has(unit) && !words.has(`${prefix.toLowerCase()}${unit}`))
      return WORD[prefix.toLowerCase()] ?? 1;
  }
  return 1;
}

/** The mention with its value in the parameter's described unit. */
export function inDescribedUnit(text: string, n: NumberMention, param: Param): NumberMention {
  const factor = prefixFactor(text, n, param);
  return factor === 1 ? n : { ...n, value: Number((n.value * factor).toPrecision(12)) };
}
