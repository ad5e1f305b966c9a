// Opaque values, quoted text, identifiers, the text after a colon and named flags to their parameters.
import { dataKind } from "./data-kind.ts";
import { requestStart } from "./envelope.ts";
import { type Filler, type JsonSchema, type Param, typeOf } from "./filler.ts";
import type { OpaqueValue } from "./opaque.ts";
import { namesEnumValue } from "./place-enums.ts";
import { namesWord } from "./place-numbers.ts";
import { allMatches, LIST_JOINER, labelBefore, type Mention, wordAfter } from "./recognisers/span.ts";
import {
  enumValues,
  escapeRegExp,
  isDateParam,
  matchesPattern,
  opaqueKindsFor,
  TEXT_NAMES,
} from "./schema-cues.ts";
/**
 * Opaque values (emails, URLs, ids) to the parameters that take their kind: to the one whose own word comes
 * right before the value ("candidate jane@…", "interviewers sam@… and lee@…"), else to the first open one;
 * a list parameter of that kind takes every such value it is given.
 */
export function fillOpaque(f: Filler, params: Param[]): void {
  const lists = new Map<Param, OpaqueValue[]>();
  let previous: { param: Param; end: number } | undefined;
  for (const value of f.mentions.opaque) {
    if (!f.free(value)) continue;
    const takers = params.filter((p) => opaqueKindsFor(p).includes(value.kind) && !f.has(p));
    // A value joined to the one before by "and", "or" or a comma continues its list.
    const continues =
      previous?.param.type === "array" && LIST_JOINER.test(f.text.slice(previous.end, value.start))
        ? previous.param
        : undefined;
    const before = labelBefore(f.text, value.start);
    const param =
      (continues && takers.includes(continues) ? continues : undefined) ??
      takers.find((p) => before !== "" && namesWord(p, before)) ??
      takers.find((p) => p.type !== "array") ??
      takers.find((p) => p.type === "array" && typeOf((p.schema.items ?? {}) as JsonSchema) === "string");
    if (!param) continue;
    // A value whose label names another parameter is that one's ("barcode '3123…' on card '229…'").
    const labelled = params.find(
      (p) => !takers.includes(p) && !f.has(p) && p.type === "string" && namesWord(p, before),
    );
    if (before !== "" && labelled && !namesWord(param, before)) continue;
    previous = { param, end: value.end };
    if (param.type === "array") {
      lists.set(param, [...(lists.get(param) ?? []), value]);
      continue;
    }
    // A phone number is written as E.164 ("+14155550199"), the form phone parameters take.
    // An IBAN or a card number grouped by spaces goes without them to a pattern that has none.
    const compact = value.value.replace(/[\s-]/g, "");
    const written =
      value.kind === "phone" && value.value.startsWith("+")
        ? `+${value.value.replace(/\D/g, "")}`
        : typeof param.schema.pattern === "string" &&
            !matchesPattern(param, value.value) &&
            matchesPattern(param, compact)
          ? compact
          : value.value;
    const typed = param.type === "number" || param.type === "integer" ? Number(written) : written;
    f.set(param, typed, value, value.kind, "opaque");
    f.placedOpaque.push(value.kind);
  }
  for (const [param, values] of lists) {
    const first = values[0] as OpaqueValue;
    const last = values.at(-1) as OpaqueValue;
    f.set(
      param,
      values.map((v) => v.value),
      { start: first.start, end: last.end },
      `${first.kind}, a list`,
      "opaque",
    );
    f.placedOpaque.push(first.kind);
  }
}

export function fillBooleans(f: Filler, params: Param[]): void {
  const lower = f.text.toLowerCase();
  for (const param of params.filter((p) => p.type === "boolean" && !f.has(p))) {
    // A verb the name starts with may inflect ("include_human_impact": "including human impact"), and so
    // may a long single word ("detailed", "standardization"); an article may come between the words
    // ("including the precipitation"), and the last word may be named in the singular or the plural.
    const [first, ...rest] = param.words.map(escapeRegExp);
    if (!first) continue;
    const inflects = (rest.length > 0 && first.length > 3) || (rest.length === 0 && first.length >= 6);
    const head = inflects ? `${first.replace(/e$/, "")}\\w*` : first;
    const number = (w: string) => (w.length > 3 ? `${w.replace(/s$/, "")}s?` : w);
    const words = [head, ...rest.map((w, i) => (i === rest.length - 1 ? number(w) : w))];
    const joint = "[\\s_-]*(?:(?:the|a|an|its|their|his|her|my|our)\\s+)?";
    // A verb's particle may follow its object: "round the total up" names round_up_total.
    const [particle, ...object] = words.slice(1);
    const moved =
      particle && object.length > 0 && /^(?:up|down|out|off|in|on)$/.test(particle)
        ? `|${[head, ...object, particle].join(joint)}`
        : "";
    const match = new RegExp(`\\b(no|not|without|don't)?\\s*(?:${words.join(joint)}${moved})\\b`).exec(lower);
    if (!match) continue;
    // "Don't return full text", "do not include the chart": a negation a verb or two before, in the clause.
    // "turn crossplay off", "disable the cache": switched off after the name or before it.
    const end = match.index + match[0].length;
    const negated =
      Boolean(match[1]) ||
      /^\s*(?:[:=]\s*)?(?:off|disabled|false)\b/.test(lower.slice(end, end + 12)) ||
      /\b(?:no|not|never|without|don't|dont|doesn't|exclude|excluding|skip|disable|disabling|deactivate|turn off|switch off)\s+(?:[a-z]+\s+){0,2}$/.test(
        `${lower.slice(Math.max(0, match.index - 40), match.index).trimEnd()} `,
      );
    f.set(param, !negated, { start: match.index, end: match.index + match[0].length }, "named", "flag");
  }
}

/**
 * Data formats a text parameter names, by its name or a free-text one's description: a value that cannot be one is not
 * taken ("'abc'" is no CSV, a JSON document no CSV rows, a base64 blob no cron line).
 */
export function hasShape(param: Param, text: string): boolean {
  // By description only for a free-text parameter: a "format" parameter described as "csv or json" takes
  // the word.
  const names = (format: string) =>
    param.name === format || (TEXT_NAMES.test(param.name) && new RegExp(`\\b${format}\\b`).test(param.hint));
  if (names("csv")) return /[,;\t|\n]/.test(text) && dataKind(text).label !== "json";
  if (names("json")) {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  if (names("cron")) return /^\s*\S+(?:\s+\S+){4,5}\s*$/.test(text);
  return true;
}

/** "the word X", "the string X": one word given as data, unquoted. */
const NAMED_WORD = /\bthe\s+(?:word|string|term|token|phrase)\s+([^\s"'“”]+?)(?=[\s,.;:!?)]|$)/i;

const SECRET_NAMES = /^(?:password|passphrase|passcode|pin|secret)$/;

/** The one unquoted word with letters and digits or symbols ("Dragon1987", "qwerty2024!"), if only one. */
function secretWord(f: Filler): Mention | undefined {
  const words = allMatches(f.text, /(?<![^\s(])[^\s"'“”`(),;]{6,64}(?=[\s,;:?.)]*(?:\s|$))/g)
    .map((m) => ({ ...m, text: m.text.replace(/[.,;:?]+$/, "") }))
    .map((m) => ({ ...m, end: m.start + m.text.length }))
    .filter(
      (m) =>
        /[A-Za-z]/.test(m.text) &&
        /[\d!@#$%^&*_+=~]/.test(m.text) &&
        // Not a number with its unit or a compound ("20-character", "four-word"), nor a short code
        // ("sha256", "utf8", "mp3").
        !/^[\d.,:/-]+[A-Za-z]{0,3}$/.test(m.text) &&
        !/^[A-Za-z\d]+(?:-[A-Za-z]+)+$/.test(m.text) &&
        !/^[A-Za-z]{1,4}\d{1,4}$/.test(m.text) &&
        f.free(m) &&
        !f.mentions.opaque.some((o) => o.start <= m.start && o.end >= m.end),
    );
  return words.length === 1 ? words[0] : undefined;
}

/**
 * Quoted values to the string parameters the word beside each names, before it or else after it ("SKU
 * 'KB-4471' to cart 'c_998'", "the 'Finance' department"), whatever the parameters' order.
 */
export function fillLabelledQuotes(f: Filler, params: Param[]): void {
  const textList = (p: Param) =>
    p.type === "array" &&
    typeOf((p.schema.items ?? {}) as JsonSchema) === "string" &&
    enumValues(p).length === 0;
  const open = params.filter(
    (p) => (p.type === "string" && !Array.isArray(p.schema.enum) && !isDateParam(p)) || textList(p),
  );
  const quotes = f.mentions.quoted;
  // The label may be a verb of the parameter's word: "titled 'Solid kettle'", "named 'Ada'", "labelled".
  const forms = (word: string) => [
    word,
    word.replace(/d$/, ""),
    word.replace(/ed$/, ""),
    word.replace(/led$/, "l"),
  ];
  // The text with its quote marks blanked, so the word after a closing quote is read at the same offset.
  const unquoted = f.text.replace(/['"”’]/g, " ");
  for (const [i, quoted] of quotes.entries()) {
    if (!f.free(quoted)) continue;
    const takers = (word: string) =>
      word === ""
        ? []
        : open.filter(
            (p) =>
              !f.has(p) &&
              forms(word).some((w) => namesWord(p, w)) &&
              (textList(p) || checkString(p, quoted.text)),
          );
    const before = labelBefore(f.text, quoted.start);
    // The word after names the value only as a noun does ("the 'Finance' department"), not "to" or "and".
    const next = wordAfter(unquoted, quoted.end);
    const after = /^(?:to|from|in|into|as|and|or|of|for|with|on|at|by|is|was|the|a|an)$/.test(next)
      ? ""
      : next;
    const [taker, other] = takers(before).length > 0 ? takers(before) : takers(after);
    if (!taker || other) continue;
    if (!textList(taker)) {
      f.set(taker, quoted.text, quoted, "quoted, beside the parameter's word", "quoted");
      continue;
    }
    // A list takes the quoted values that follow, joined by commas or "and" ("terms 'a', 'b' and 'c'").
    const items = [quoted];
    for (const next of quotes.slice(i + 1)) {
      const last = items.at(-1) as Mention;
      if (!LIST_JOINER.test(f.text.slice(last.end + 1, next.start - 1))) break;
      items.push(next);
    }
    const span = { start: quoted.start, end: (items.at(-1) as Mention).end };
    f.set(
      taker,
      items.map((q) => q.text),
      span,
      "quoted list, after the parameter's word",
      "quoted",
    );
  }
}

const NAME_WORDS = new Set(["name", "title", "label", "nickname"]);

/** Quoted strings, then an opaque blob, then the text after a colon, to the free-text parameters. */
export function fillText(f: Filler, params: Param[]): void {
  const open = params.filter(
    (p) => p.type === "string" && !f.has(p) && !Array.isArray(p.schema.enum) && !isDateParam(p),
  );
  // A quoted value is a literal: an optional parameter that names a name or a title takes it too, after
  // the free-text and the required ones ("Send \"Roomba Upstairs\" back" to device_name).
  const named = (p: Param) =>
    !p.required && !TEXT_NAMES.test(p.name) && p.words.some((w) => NAME_WORDS.has(w));
  const textual = [
    ...open.filter((p) => TEXT_NAMES.test(p.name)),
    ...open.filter((p) => p.required && !TEXT_NAMES.test(p.name)),
    ...open.filter(named),
  ];
  for (const param of textual) {
    if (f.has(param)) continue;
    const quoted = f.mentions.quoted.find((q) => f.free(q) && hasShape(param, q.text));
    if (quoted) {
      f.set(param, quoted.text, quoted, "quoted", "quoted");
      continue;
    }
    if (!TEXT_NAMES.test(param.name)) continue;
    const blob = f.mentions.opaque.find(
      // A hash is data to check or look up, not text to work on: hashing one ("reverse this SHA-256") is
      // no answer to anything, so only a parameter that names a hash takes it.
      (o) =>
        f.free(o) &&
        (o.kind === "base64" || (o.kind === "hash" && /\b(?:hash|digest|checksum)/.test(param.hint))) &&
        hasShape(param, o.value),
    );
    if (blob) {
      f.set(param, blob.value, blob, blob.kind, "opaque");
      f.placedOpaque.push(blob.kind);
      continue;
    }
    // The one email no parameter takes is the text to work on ("base64 encode ops-bot@acme.dev"),
    // as quoted text is: no evidence for the tool, whose words must make the case ("make a QR code for
    // https://…" is no request for a slug).
    const loose = f.mentions.opaque.filter(
      (o) =>
        f.free(o) &&
        // An email is a string agents encode and hash; a URL to a text tool is more often a page to act on.
        o.kind === "email" &&
        !params.some((p) => opaqueKindsFor(p).includes(o.kind)) &&
        hasShape(param, o.value),
    );
    if (loose.length === 1 && loose[0] && f.mentions.quoted.length === 0) {
      f.set(param, loose[0].value, loose[0], loose[0].kind, "quoted");
      continue;
    }
    // A secret written out unquoted ("is qwerty2024! good enough as a password"): the one word of letters
    // with digits or symbols, for a parameter that names a password.
    const secret = SECRET_NAMES.test(param.name) ? secretWord(f) : undefined;
    if (secret) {
      f.set(param, secret.text, secret, "password-shaped word", "shape");
      continue;
    }
    // A word the request names as such ("the MD5 of the word switchboard"): quoted in all but the marks.
    const named = NAMED_WORD.exec(f.text);
    const at = named
      ? { start: named.index + named[0].length - (named[1]?.length ?? 0), end: named.index + named[0].length }
      : undefined;
    if (named?.[1] && at && f.free(at)) {
      f.set(param, named[1], at, "the word named", "quoted");
      continue;
    }
    // One identifier or escaped string that is no enum value of the tool ("convert myVariableName to
    // snake_case": snake_case names the target case).
    // An identifier inside pasted data ("unit_price" in a CSV header) is part of that data, not the value.
    // After a label ("chmod question: …") the colon opens the request, not its data.
    const trailing = f.mentions.trailing?.start === requestStart(f.text) ? undefined : f.mentions.trailing;
    const pasted = trailing && f.free(trailing) && hasShape(param, trailing.text) ? trailing : undefined;
    const tokens = f.mentions.tokens.filter(
      (t) =>
        f.free(t) &&
        !namesEnumValue(params, t.text) &&
        hasShape(param, t.text) &&
        !(pasted && t.start >= pasted.start && t.end <= pasted.end && pasted.text.trim() !== t.text),
    );
    const [token] = tokens;
    if (token && tokens.length === 1) {
      f.set(param, token.text, token, "identifier or escaped text", "shape");
      continue;
    }
    const hashFirst = f.mentions.opaque.some(
      (o) => o.kind === "hash" && trailing && o.start === trailing.start,
    );
    if (trailing && f.free(trailing) && hasShape(param, trailing.text) && !hashFirst)
      f.set(param, trailing.text, trailing, "text after the colon", "quoted");
  }
}

export function checkString(param: Param, value: unknown): boolean {
  if (typeof value !== "string") return true;
  if (typeof param.schema.pattern === "string" && !matchesPattern(param, value)) return false;
  return hasShape(param, value);
}
