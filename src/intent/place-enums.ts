// Enum values the request names, by their words.
import type { Filler, Param } from "./filler.ts";
import type { Mention } from "./mentions.ts";
import type { Span } from "./opaque.ts";
import { describedValues, enumValues, escapeRegExp } from "./schema-cues.ts";

/** What comes right before a unit named in the singular: a number ("three-month"), or a word that counts one. */
const SINGULAR_COUNT =
  /(?:\d|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|\w+ty|hundred|per|each|every|this|that|next|last|same|half|single|whole))[\s-]*$/;

/** The text in lower case with "%" spelled " percent" ("percentage" still matches it), and each offset's origin. */
function spelled(original: string): { text: string; offsets: number[] } {
  const text = original.toLowerCase().replace(/%/g, " percent");
  const offsets: number[] = [];
  for (let i = 0, j = 0; i < original.length; i++) {
    const piece = original[i] === "%" ? " percent" : (original[i] ?? "");
    for (let k = 0; k < piece.length; k++) offsets[j++] = i;
  }
  return { text, offsets };
}

/** Every enum value the text names by its own words, with its span and how fully it is named. */
export function enumHits(
  f: Filler,
  param: Param,
  quoted: Mention[],
  named: unknown[] = enumValues(param),
): { value: string; span: Span; score: number }[] {
  return hitsIn(spelled(f.text), quoted, named);
}

function hitsIn(
  { text, offsets }: { text: string; offsets: number[] },
  quoted: Mention[],
  named: unknown[],
): { value: string; span: Span; score: number }[] {
  const hits: { value: string; span: Span; score: number }[] = [];
  for (const value of named) {
    if (typeof value !== "string" || value.length < 2) continue;
    const words = value.toLowerCase().split(/[_\s-]+/);
    // Short words are whole words ("of" is not "off"); longer ones may inflect ("increase" → "increased").
    // A plural value also names its singular ("a 14 day trial": days), but no longer word ("weekday").
    const word = (w: string) => {
      // "crc32" is also written "CRC-32", "sha256" "SHA 256".
      const code = /^([a-z]+)(\d+)$/.exec(w);
      if (code) return `${code[1]}[-\\s]?${code[2]}\\b`;
      const escaped = escapeRegExp(w);
      if (w.length <= 3) return `${escaped}\\b`;
      // "master's" names "masters" as its plural does.
      return w.endsWith("s") ? `${escaped.slice(0, -1)}(?:['’]?s)?\\b` : `${escaped}\\w*`;
    };
    // Words of a value may be joined by a hyphen in the request ("full-time" names full_time).
    const pattern = new RegExp(`\\b${words.map(word).join("[\\s-]+(?:\\S+\\s+){0,2}?")}`, "g");
    for (const match of text.matchAll(pattern)) {
      const start = offsets[match.index] ?? match.index;
      const end = (offsets[match.index + match[0].length - 1] ?? start) + 1;
      const span = { start, end };
      if (quoted.some((q) => start < q.end && end > q.start)) continue;
      // A plural value named in the singular is a count's unit only after the count ("a 14 day trial",
      // "one day", "per day"), not a word of a name ("Christmas Day").
      if (
        words.length === 1 &&
        value.endsWith("s") &&
        !/s$/i.test(match[0]) &&
        !SINGULAR_COUNT.test(text.slice(Math.max(0, match.index - 24), match.index))
      )
        continue;
      // More words named is better ("percent change" over "percent"); words in between count against it.
      const between = match[0].split(/\s+/).length - words.length;
      hits.push({ value, span, score: words.length * 10 - between });
    }
  }
  return hits;
}

/** The enum value the text names, when exactly one is named outside the spans other values took. */
export function enumMention(
  f: Filler,
  param: Param,
  quoted: Mention[],
  named: unknown[] = enumValues(param),
): { value: string; span: Span } | undefined {
  const lowered = spelled(f.text);
  const { text, offsets } = lowered;
  const hits = hitsIn(lowered, quoted, named);
  if (hits.length === 0) return undefined;
  // A tie between two values is ambiguous: neither is taken.
  const most = Math.max(...hits.map((h) => h.score));
  const best = hits.filter((h) => h.score === most);
  const distinct = new Set(best.map((h) => h.value));
  const chosen = best[0];
  if (distinct.size !== 1 || !chosen) return undefined;
  // So is a content word of another value, when either is a phrase, named outside the chosen one ("what
  // percent increase": what_percent, or an increase?).
  // Words most values share ("percent" in percent_of, what_percent, percent_change) name the tool's topic,
  // not one value.
  const split = (v: string) => v.toLowerCase().split(/[_\s-]+/);
  const values = named.filter((v): v is string => typeof v === "string");
  const common = (w: string) => values.filter((v) => split(v).includes(w)).length * 2 >= values.length;
  const own = new Set(split(chosen.value));
  for (const value of values) {
    if (value === chosen.value) continue;
    if (own.size === 1 && split(value).length === 1) continue;
    for (const w of split(value)) {
      if (w.length <= 4 || own.has(w) || common(w)) continue;
      const other = new RegExp(`\\b${escapeRegExp(w)}\\w*`, "g");
      for (const m of text.matchAll(other)) {
        const at = offsets[m.index] ?? m.index;
        const outside = at < chosen.span.start || at >= chosen.span.end;
        if (outside && !quoted.some((q) => at >= q.start && at < q.end)) return undefined;
      }
    }
  }
  return chosen;
}

/** The one value of `values` the request names, placed as written there (a list parameter gets a list of it). */
function placeNamed(
  f: Filler,
  param: Param,
  values: unknown[],
  how: string,
  evidence: "enum" | "described",
  consume: boolean,
): void {
  const hit = enumMention(f, param, f.mentions.quoted, values);
  if (hit) f.set(param, param.type === "array" ? [hit.value] : hit.value, hit.span, how, evidence, consume);
}

export function fillEnums(f: Filler, params: Param[]): void {
  for (const param of params)
    if (!f.has(param)) placeNamed(f, param, enumValues(param), "enum value named", "enum", false);
}

/**
 * For a tool with no examples, the values its description names in quotes stand in for an enum: "the
 * temperature unit ('Celsius' or 'Fahrenheit')", "e.g., 'IPR', 'Patent'". One of them named in the request
 * is that parameter's value, as the description spells it.
 */
export function fillDescribedValues(f: Filler, params: Param[]): void {
  for (const param of params) {
    if (f.has(param) || enumValues(param).length > 0) continue;
    const values = describedValues(param);
    if (values.length > 0) placeNamed(f, param, values, "a value the description names", "described", true);
  }
}

export function namesEnumValue(params: Param[], token: string): boolean {
  const key = token.toLowerCase().replace(/[_\s-]+/g, "");
  return params.some((p) =>
    enumValues(p).some(
      (v) => typeof v === "string" && key.startsWith(v.toLowerCase().replace(/[_\s-]+/g, "")),
    ),
  );
}
