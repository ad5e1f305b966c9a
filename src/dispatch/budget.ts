// Result budgets: an over-long result keeps its head 40% and tail 40% with a marker between. JSON stays
// JSON: long strings are cut inside, long arrays lose middle items (a marker item says how many), and an
// object's large fields share what the small ones leave. Under budget, the output is returned untouched
// (no serialisation) whenever a size bound already proves it fits.
import type { TokenCounter } from "./tokens.ts";

const HEAD = 0.4;
const TAIL = 0.4;

export interface BudgetResult {
  output: unknown;
  /** Estimated tokens removed; 0 when the output fit. */
  omittedTokens: number;
}

function marker(tokens: number): string {
  return `... [output truncated, ~${tokens} tokens omitted] ...`;
}

/**
 * An upper bound on the length of `JSON.stringify(value)`, counted only until it passes `limit` (then any
 * number above it). Infinity where JSON.stringify would not just walk the value (a `toJSON` method, a
 * bigint). A string is counted with its escapes (a control character or lone surrogate becomes six
 * characters, a quote or backslash two); a number is at most 24 characters ("-2.2250738585072014e-308").
 * Recursive rather than with an explicit stack so that the common small answer allocates nothing.
 */
function jsonLengthUpTo(value: unknown, limit: number): number {
  switch (typeof value) {
    case "string":
      return escapedLengthUpTo(value, limit);
    case "number":
      return 24;
    case "boolean":
      return 5;
    case "bigint":
      return Number.POSITIVE_INFINITY;
    case "object":
      return value === null ? 4 : containerLengthUpTo(value, limit);
    default:
      return 4; // undefined, a function or a symbol: dropped from objects, "null" in arrays
  }
}

function containerLengthUpTo(value: object, limit: number): number {
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return Number.POSITIVE_INFINITY;
  let length = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && length <= limit; i++)
      length += 1 + jsonLengthUpTo(value[i], limit - length);
    return length;
  }
  // for…in also visits inherited enumerable keys, which JSON.stringify skips: the bound only grows.
  for (const key in value) {
    if (length > limit) break;
    // The same bounds as escapedLengthUpTo and jsonLengthUpTo give, worked out here for a key and a number
    // or string field that certainly fit: a call each cost more than the rest of checking a small answer
    // (a third of the budget check, measured in `npm run bench:dispatch`).
    const keyBound = 6 * key.length + 2;
    length += 2 + (keyBound <= limit - length ? keyBound : escapedLengthUpTo(key, limit - length));
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === "number") length += 24;
    else if (typeof field === "string" && 6 * field.length + 2 <= limit - length)
      length += 6 * field.length + 2;
    else length += jsonLengthUpTo(field, limit - length);
  }
  return length;
}

function escapedLengthUpTo(text: string, limit: number): number {
  // Six characters per code unit bounds any escape; only a string that might not fit is looked at.
  if (6 * text.length + 2 <= limit) return 6 * text.length + 2;
  let length = 2;
  for (let i = 0; i < text.length && length <= limit; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff)) length += 6;
    else if (code === 0x22 || code === 0x5c) length += 2;
    else length += 1;
  }
  return length;
}

/**
 * Whether `output` certainly fits the budget as it is, decided from its length alone (at most
 * `count.maxPerChar` tokens per character, plus one for rounding): no serialisation and no counting.
 * False only means "count it".
 */
export function fitsBudget(output: unknown, budget: number, count: TokenCounter): boolean {
  const limit = (budget - 1) / count.maxPerChar;
  if (typeof output === "string") return output.length <= limit;
  if (output === null || typeof output !== "object") return true;
  return jsonLengthUpTo(output, limit) <= limit;
}

/** Cuts between UTF-16 surrogate halves are moved by one so no character is split. */
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + 1 : index;
}

function truncateText(text: string, budget: number, count: TokenCounter, total = count(text)): string {
  if (total <= budget) return text;
  const charsPerToken = text.length / total;
  // Small budgets must leave room for the marker itself.
  let share = Math.min(budget, Math.max(0, budget - count(marker(total)) - 2) / (HEAD + TAIL));
  let cut = "";
  // Density varies along a text, so a cut sized by the average can overshoot; it is shrunk until it fits.
  for (let round = 0; round < 4; round++) {
    const headEnd = safeCut(text, Math.floor(HEAD * share * charsPerToken));
    const tailStart = safeCut(text, text.length - Math.floor(TAIL * share * charsPerToken));
    const head = text.slice(0, headEnd);
    const tail = text.slice(tailStart);
    const omitted = Math.max(0, total - count(head) - count(tail));
    cut = `${head}\n${marker(omitted)}\n${tail}`;
    const used = count(cut);
    if (used <= budget) break;
    share *= (budget / used) * 0.95;
  }
  return cut;
}

function shrink(value: unknown, budget: number, count: TokenCounter): unknown {
  const cost = (v: unknown) => count(JSON.stringify(v) ?? "");
  if (typeof value === "string") {
    const total = count(value);
    return total <= budget ? value : truncateText(value, budget, count, total);
  }
  if (Array.isArray(value)) return shrinkArray(value, budget, count, cost);
  if (value && typeof value === "object")
    return shrinkObject(value as Record<string, unknown>, budget, count, cost);
  return value;
}

function shrinkArray(items: unknown[], budget: number, count: TokenCounter, cost: (v: unknown) => number) {
  const sizes = items.map(cost);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= budget) return items;
  let headCount = 0;
  for (let used = 0; headCount < items.length && used + (sizes[headCount] ?? 0) <= HEAD * budget; headCount++)
    used += sizes[headCount] ?? 0;
  let tailCount = 0;
  for (
    let used = 0;
    tailCount < items.length - headCount &&
    used + (sizes[items.length - 1 - tailCount] ?? 0) <= TAIL * budget;
    tailCount++
  )
    used += sizes[items.length - 1 - tailCount] ?? 0;
  // A single item bigger than its share is itself shrunk rather than dropped, so something always remains.
  const head = headCount > 0 ? items.slice(0, headCount) : [shrink(items[0], HEAD * budget, count)];
  const keptHead = Math.max(headCount, 1);
  const tail =
    tailCount > 0
      ? items.slice(items.length - tailCount)
      : items.length > keptHead
        ? [shrink(items[items.length - 1], TAIL * budget, count)]
        : [];
  const omittedItems = items.length - keptHead - tail.length;
  if (omittedItems <= 0) return [...head, ...tail];
  const omittedTokens = sizes.slice(keptHead, items.length - tail.length).reduce((a, b) => a + b, 0);
  return [
    ...head,
    `... [output truncated, ${omittedItems} of ${items.length} items omitted, ~${omittedTokens} tokens] ...`,
    ...tail,
  ];
}

function shrinkObject(
  object: Record<string, unknown>,
  budget: number,
  count: TokenCounter,
  cost: (v: unknown) => number,
) {
  const entries = Object.entries(object).map(([key, value]) => ({
    key,
    value,
    size: cost(value) + count(key),
  }));
  if (entries.reduce((a, e) => a + e.size, 0) <= budget) return object;
  // Water-filling: small fields are kept whole, the large ones share what is left equally.
  const bySize = [...entries].sort((a, b) => a.size - b.size);
  const shrunk = new Map<string, unknown>();
  let remaining = budget;
  bySize.forEach((entry, i) => {
    const share = remaining / (bySize.length - i);
    if (entry.size <= share) remaining -= entry.size;
    else {
      shrunk.set(entry.key, shrink(entry.value, Math.max(1, share - count(entry.key)), count));
      remaining -= share;
    }
  });
  return Object.fromEntries(entries.map((e) => [e.key, shrunk.has(e.key) ? shrunk.get(e.key) : e.value]));
}

export function applyBudget(output: unknown, budget: number, count: TokenCounter): BudgetResult {
  if (fitsBudget(output, budget, count)) return { output, omittedTokens: 0 };
  if (typeof output === "string") {
    const total = count(output);
    if (total <= budget) return { output, omittedTokens: 0 };
    const cut = truncateText(output, budget, count, total);
    return { output: cut, omittedTokens: Math.max(0, total - count(cut)) };
  }
  const text = JSON.stringify(output);
  const total = count(text);
  if (total <= budget) return { output, omittedTokens: 0 };
  const cut = shrink(output, budget, count);
  return { output: cut, omittedTokens: Math.max(0, total - count(JSON.stringify(cut))) };
}
