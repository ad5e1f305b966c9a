// Result budgets: an over-long result keeps its head 40% and tail 40% with a marker between. JSON stays
// JSON: long strings are cut inside, long arrays lose middle items (a marker item says how many), and an
// object's large fields share what the small ones leave. Under budget, the output is returned untouched
// (no serialisation) whenever a cheap size bound already shows it fits.
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

/** Characters in the JSON text of `value`, counted until `limit` is passed (then any number > limit). */
function jsonCharsUpTo(value: unknown, limit: number): number {
  let chars = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && chars <= limit) {
    const v = stack.pop();
    if (typeof v === "string") chars += v.length + 2;
    else if (Array.isArray(v)) {
      chars += 2 + v.length;
      for (const item of v) stack.push(item);
    } else if (v && typeof v === "object") {
      for (const key in v) {
        chars += key.length + 4;
        stack.push((v as Record<string, unknown>)[key]);
      }
      chars += 2;
    } else chars += String(v).length;
  }
  return chars;
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
  if (typeof output === "string") {
    // A token is at least one character, so a string no longer than the budget always fits.
    if (output.length <= budget) return { output, omittedTokens: 0 };
    const total = count(output);
    if (total <= budget) return { output, omittedTokens: 0 };
    const cut = truncateText(output, budget, count, total);
    return { output: cut, omittedTokens: Math.max(0, total - count(cut)) };
  }
  if (output === null || typeof output !== "object") return { output, omittedTokens: 0 };
  if (jsonCharsUpTo(output, budget) <= budget) return { output, omittedTokens: 0 };
  const text = JSON.stringify(output);
  const total = count(text);
  if (total <= budget) return { output, omittedTokens: 0 };
  const cut = shrink(output, budget, count);
  return { output: cut, omittedTokens: Math.max(0, total - count(JSON.stringify(cut))) };
}
