// Arguments from the request, driven by the chosen tool's JSON Schema: each parameter's type, enum,
// pattern, format, name and description decide which of the request's typed mentions (mentions.ts) it
// takes. Every value records the span it came from. A required parameter nothing fits, or a place the
// request names that no zone matches, is reported as missing: the caller asks, it never guesses.
import { linearRegExp, type RegExpLike } from "../catalog/index.ts";
import { assignBest, type Candidate } from "./assign.ts";
import { type Evidence, fillConfidence } from "./confidence.ts";
import { type ExampleCall, type LearnedCues, learnFromExamples } from "./examples.ts";
import { findMentions, type Mention, type Mentions, type NumberMention } from "./mentions.ts";
import type { OpaqueKind, OpaqueValue, Span } from "./opaque.ts";

type JsonSchema = Record<string, unknown>;

export interface FilledValue {
  field: string;
  value: unknown;
  /** The agent's arguments, the request's text, or the configured LLM reading the request. */
  source: "agent" | "query" | "llm";
  /** Where in the request the value was read, for "query" values. */
  span?: { start: number; end: number; text: string };
  /** Which evidence placed it, in words: "quoted", "jwt", "number after 'years'", … */
  how?: string;
  /** The kind of that evidence, one of the confidence table's rows. */
  evidence?: Evidence;
}

export interface MissingField {
  field: string;
  schema: JsonSchema;
  /** Why it is missing: nothing in the request fits, or the request names something that does not. */
  reason: string;
}

export interface FillResult {
  arguments: Record<string, unknown>;
  filled: FilledValue[];
  missing: MissingField[];
  /** Opaque values of the request that some parameter took: evidence that the tool fits. */
  placedOpaque: OpaqueKind[];
  /**
   * How sure the filler is of the values it read, 0 to 1, from the confidence table (confidence.ts). A
   * call below `FILL_CONFIDENCE_BAR` is proposed, not run: its values are `suggested`, each with its span.
   */
  confidence: number;
  /** The values read from the request, with their spans, for a caller to confirm in one step. */
  suggested: FilledValue[];
}

export interface FillOptions {
  /** The tool's example calls: how its values are phrased (examples.ts). */
  examples?: readonly ExampleCall[];
}

interface Param {
  name: string;
  schema: JsonSchema;
  required: boolean;
  type: string;
  /** Name and description, lower case, for cue words. */
  hint: string;
  words: string[];
  /** Words around its value in the tool's example calls. */
  numeric: boolean;
  before: Set<string>;
  after: Set<string>;
}

function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return (type.find((t) => t !== "null") as string | undefined) ?? "any";
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")) return "string";
  return "any";
}

function paramsOf(schema: JsonSchema, learned: LearnedCues): Param[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, child]) => ({
    name,
    schema: child,
    required: required.has(name),
    type: typeOf(child),
    hint: `${name.replace(/_/g, " ")} ${typeof child.description === "string" ? child.description : ""}`.toLowerCase(),
    words: name.split(/[_\s-]+|(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase()),
    numeric: learned.numeric.has(name),
    before: learned.before.get(name) ?? new Set<string>(),
    after: learned.after.get(name) ?? new Set<string>(),
  }));
}

class Filler {
  readonly mentions: Mentions;
  readonly args: Record<string, unknown> = {};
  readonly filled: FilledValue[] = [];
  readonly placedOpaque: OpaqueKind[] = [];
  readonly text: string;
  private readonly used: Span[] = [];
  constructor(text: string) {
    this.text = text;
    this.mentions = findMentions(text);
  }
  free(span: Span): boolean {
    return !this.used.some((u) => span.start < u.end && span.end > u.start);
  }
  /** `consume` false leaves the span to other parameters (an enum's words can frame a number). */
  set(
    param: Param,
    value: unknown,
    span: Span | undefined,
    how: string,
    evidence: Evidence,
    consume = true,
  ): void {
    this.args[param.name] = value;
    const entry: FilledValue = { field: param.name, value, source: "query", how, evidence };
    if (span) {
      entry.span = { start: span.start, end: span.end, text: this.text.slice(span.start, span.end) };
      if (consume) this.used.push(span);
    }
    this.filled.push(entry);
  }
  has(param: Param): boolean {
    return param.name in this.args;
  }
}

/** Opaque kinds a string parameter accepts, from its format, name and description. */
function opaqueKindsFor(param: Param): OpaqueKind[] {
  const kinds: OpaqueKind[] = [];
  const format = param.schema.format;
  if (/\b(?:token|jwt)\b/.test(param.hint)) kinds.push("jwt");
  if (format === "email" || /\bemail\b/.test(param.name)) kinds.push("email");
  if (format === "uri" || format === "url" || /\b(?:url|uri)\b/.test(param.name)) kinds.push("url");
  if (format === "uuid" || /\buuid\b/.test(param.name)) kinds.push("uuid");
  if (/\biban\b/.test(param.hint)) kinds.push("iban");
  if (/\b(?:card|number)\b/.test(param.name) && param.type === "string")
    kinds.push("card_number", "long_number");
  if (/\b(?:hash|digest|checksum)\b/.test(param.name)) kinds.push("hash");
  if (/\btimestamp|epoch|unix\b/.test(param.hint) && param.type !== "string") kinds.push("long_number");
  return kinds;
}

/** Parameters whose value is free text: the first takes an opaque blob or a quoted string. */
const TEXT_NAMES =
  /^(?:text|input|data|string|value|content|password|csv|json|expression|query|body|message)$/;

const compiledPatterns = new Map<string, RegExpLike | undefined>();

/** A schema's pattern runs on the linear-time engine the catalog checks calls with: it is the tool's data. */
function matchesPattern(param: Param, value: string): boolean {
  const pattern = param.schema.pattern;
  if (typeof pattern !== "string") return false;
  if (!compiledPatterns.has(pattern)) {
    let compiled: RegExpLike | undefined;
    try {
      compiled = linearRegExp(pattern, "u");
    } catch {
      compiled = undefined;
    }
    if (compiledPatterns.size > 1000) compiledPatterns.clear();
    compiledPatterns.set(pattern, compiled);
  }
  return compiledPatterns.get(pattern)?.test(value) ?? false;
}

function isDateParam(param: Param): boolean {
  const format = param.schema.format;
  return (
    format === "date" ||
    (typeof param.schema.pattern === "string" && param.schema.pattern.includes("\\d{4}-\\d{2}-\\d{2}")) ||
    /^(?:date|start|end|from_date|to_date|start_date|end_date)$/.test(param.name)
  );
}

function enumValues(param: Param): unknown[] {
  if (Array.isArray(param.schema.enum)) return param.schema.enum;
  const items = param.schema.items as JsonSchema | undefined;
  if (param.type === "array" && items && Array.isArray(items.enum)) return items.enum;
  return [];
}

/** The enum value the text names, when exactly one is named outside the spans other values took. */
function enumMention(f: Filler, param: Param, quoted: Mention[]): { value: string; span: Span } | undefined {
  // "percentage" still matches "percent", whose words may inflect.
  const text = f.text.toLowerCase().replace(/%/g, " percent");
  // Replacing "%" with " percent" shifts offsets; spans are mapped back through this index list.
  const offsets: number[] = [];
  for (let i = 0, j = 0; i < f.text.length; i++) {
    const piece = f.text[i] === "%" ? " percent" : (f.text[i] ?? "");
    for (let k = 0; k < piece.length; k++) offsets[j++] = i;
  }
  const hits: { value: string; span: Span; score: number }[] = [];
  for (const value of enumValues(param)) {
    if (typeof value !== "string" || value.length < 2) continue;
    const words = value.toLowerCase().split(/[_\s-]+/);
    // Short words are whole words ("of" is not "off"); longer ones may inflect ("increase" → "increased").
    // A plural value also names its singular ("a 14 day trial": days), but no longer word ("weekday").
    const word = (w: string) => {
      const escaped = w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (w.length <= 3) return `${escaped}\\b`;
      return w.endsWith("s") ? `${escaped.slice(0, -1)}s?\\b` : `${escaped}\\w*`;
    };
    const pattern = new RegExp(`\\b${words.map(word).join("\\s+(?:\\S+\\s+){0,2}?")}`, "g");
    for (const match of text.matchAll(pattern)) {
      const start = offsets[match.index] ?? match.index;
      const end = (offsets[match.index + match[0].length - 1] ?? start) + 1;
      const span = { start, end };
      if (quoted.some((q) => start < q.end && end > q.start)) continue;
      // More words named is better ("percent change" over "percent"); words in between count against it.
      const between = match[0].split(/\s+/).length - words.length;
      hits.push({ value, span, score: words.length * 10 - between });
    }
  }
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
  const values = enumValues(param).filter((v): v is string => typeof v === "string");
  const common = (w: string) => values.filter((v) => split(v).includes(w)).length * 2 >= values.length;
  const own = new Set(split(chosen.value));
  for (const value of values) {
    if (value === chosen.value) continue;
    if (own.size === 1 && split(value).length === 1) continue;
    for (const w of split(value)) {
      if (w.length <= 4 || own.has(w) || common(w)) continue;
      const other = new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\w*`, "g");
      for (const m of text.matchAll(other)) {
        const at = offsets[m.index] ?? m.index;
        const outside = at < chosen.span.start || at >= chosen.span.end;
        if (outside && !quoted.some((q) => at >= q.start && at < q.end)) return undefined;
      }
    }
  }
  return chosen;
}

function fillEnums(f: Filler, params: Param[]): void {
  for (const param of params) {
    if (f.has(param)) continue;
    const hit = enumMention(f, param, f.mentions.quoted);
    if (hit)
      f.set(
        param,
        param.type === "array" ? [hit.value] : hit.value,
        hit.span,
        "enum value named",
        "enum",
        false,
      );
  }
}

/** Phrases the tool's examples used for a value they did not write ("monthly" for 12, "binary" for 2). */
function fillPhrases(f: Filler, params: Param[], learned: LearnedCues): void {
  const lower = f.text.toLowerCase();
  for (const param of params) {
    if (f.has(param)) continue;
    const hits: { value: unknown; span: Span }[] = [];
    for (const { phrase, value } of learned.phrases.filter((p) => p.param === param.name)) {
      const at = new RegExp(`\\b${escapeRegExp(phrase)}\\b`).exec(lower);
      if (at && !hits.some((h) => JSON.stringify(h.value) === JSON.stringify(value)))
        hits.push({ value, span: { start: at.index, end: at.index + phrase.length } });
    }
    if (hits.length === 0) continue;
    hits.sort((a, b) => a.span.start - b.span.start);
    const [first] = hits;
    if (!first) continue;
    // A list takes every value named; a single value only an unambiguous one.
    if (param.type === "array")
      f.set(
        param,
        hits.map((h) => h.value),
        first.span,
        "phrase from the examples",
        "learned",
      );
    else if (hits.length === 1) f.set(param, first.value, first.span, "phrase from the examples", "learned");
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function fillOpaque(f: Filler, params: Param[]): void {
  for (const value of f.mentions.opaque) {
    if (!f.free(value)) continue;
    const param = params.find(
      (p) => !f.has(p) && p.type !== "array" && opaqueKindsFor(p).includes(value.kind),
    );
    if (!param) continue;
    const typed = param.type === "number" || param.type === "integer" ? Number(value.value) : value.value;
    f.set(param, typed, value, value.kind, "opaque");
    f.placedOpaque.push(value.kind);
  }
}

function fillTyped(f: Filler, params: Param[]): void {
  const { mentions } = f;
  placeDates(
    f,
    params.filter((p) => isDateParam(p) && !f.has(p)),
  );
  for (const param of params.filter((p) => p.type === "string" && /version/.test(p.hint))) {
    if (f.has(param)) continue;
    const version = mentions.versions.find((v) => f.free(v));
    if (version) f.set(param, version.text, version, "version", "shape");
  }
  for (const param of params.filter((p) => p.type === "string" && /colou?r/.test(p.name))) {
    if (f.has(param)) continue;
    const color = mentions.colors.find((c) => f.free(c));
    if (color) f.set(param, color.text, color, "colour", "shape");
  }
  // A date with a time of day is one value: an ISO date-time parameter, or a time parameter whose wall
  // time may carry a date ("2024-07-01 15:00").
  for (const param of params.filter(
    (p) =>
      p.type === "string" &&
      (p.schema.format === "date-time" ||
        /^(?:datetime|date_time|timestamp_iso)$/.test(p.name) ||
        /^time$|^(?:start|at)_time$/.test(p.name)),
  )) {
    if (f.has(param)) continue;
    const datetime = mentions.datetimes.find((d) => f.free(d));
    if (datetime) f.set(param, datetime.text, datetime, "date and time", "shape");
  }
  for (const param of params.filter(
    (p) => p.type === "string" && /^(?:datetime|date_time)$/.test(p.name) && !isDateParam(p),
  )) {
    if (f.has(param)) continue;
    const date = mentions.dates.find((d) => f.free(d) && d.value !== "today");
    if (date) f.set(param, date.value, date, "date", "shape");
  }
  for (const param of params.filter(
    (p) => p.type === "string" && /^time$|^(?:start|at)_time$/.test(p.name),
  )) {
    if (f.has(param)) continue;
    const time = mentions.times.find((t) => f.free(t));
    if (time) f.set(param, time.text, time, "time of day", "shape");
  }
  for (const param of params.filter((p) => p.type === "string" && /cron/.test(p.hint))) {
    if (f.has(param)) continue;
    const cron = [...mentions.quoted, ...mentions.crons].find(
      (c) => f.free(c) && c.text.trim().split(/\s+/).length >= 5,
    );
    if (cron) f.set(param, cron.text.trim(), cron, "cron expression", "shape");
  }
  for (const param of params.filter(
    (p) => p.type === "string" && /expression|formula/.test(p.hint) && !/cron/.test(p.hint),
  )) {
    if (f.has(param)) continue;
    const expression = mentions.expressions
      .filter((e) => f.free(e))
      .sort((a, b) => b.text.length - a.text.length)[0];
    if (expression) f.set(param, expression.text.trim(), expression, "math expression", "shape");
  }
}

const PLACE_REFERENCE =
  /\bwhere\s+(?:\S+\s+){0,3}?(?:lives?|is|are|based|located|stays?)\b|\b(?:their|his|her|your|our|my|the \w+'s)\s+(?:local\s+)?(?:time\s?zone|location|city|country|place|local time)\b|\b(?:over\s+)?there\s*(?:right now|now)?\s*[?.!]*$/i;

/** Zone parameters: a "to"/"in" zone after another zone is the target; one zone goes to the first. */
function fillZones(f: Filler, params: Param[]): MissingField[] {
  const zoneParams = params.filter((p) => p.type === "string" && /zone/.test(p.name) && !f.has(p));
  if (zoneParams.length === 0) return [];
  const zones = f.mentions.zones.filter((z) => f.free(z));
  const target = zoneParams.find((p) => /^to|target|dest/.test(p.name));
  const source = zoneParams.find((p) => /^from|source/.test(p.name));
  const lower = f.text.toLowerCase();
  const afterTo = (z: Span) =>
    /\b(?:to|into|in)\s+(?:the\s+)?$/.test(lower.slice(Math.max(0, z.start - 12), z.start));
  if (target && source) {
    // The zone a stated time is in is the source ("… when it is 3pm on 2024-07-01 in New York", "3pm
    // London time"): the zone right after the time, or right before "time". Otherwise "to" names the target.
    const stated = [...f.mentions.times, ...f.mentions.datetimes];
    const ofTime = zones.find(
      (z) =>
        stated.some(
          (t) =>
            t.end <= z.start &&
            /^[\s\w-]{0,20}\b(?:in|at)\s+(?:the\s+)?$/i.test(f.text.slice(t.end, z.start)),
        ) ||
        (/^\s+time\b/i.test(f.text.slice(z.end, z.end + 8)) && (stated.length > 0 || zones.length >= 2)),
    );
    const to =
      zones.length >= 2
        ? (zones.find(
            (z) =>
              z !== ofTime && afterTo(z) && !/^\s+time\b/i.test(f.text.slice(z.end, z.end + 8)) && ofTime,
          ) ?? zones.filter((z) => z !== ofTime).at(-1))
        : zones.find((z) => z !== ofTime && afterTo(z));
    const from = ofTime && ofTime !== to ? ofTime : zones.find((z) => z !== to);
    if (to) f.set(target, to.zone, to, "city or zone name", "zone");
    if (from) f.set(source, from.zone, from, "city or zone name", "zone");
  } else {
    for (const [i, param] of zoneParams.entries()) {
      const zone = zones[i];
      if (zone) f.set(param, zone.zone, zone, "city or zone name", "zone");
    }
  }
  // A place the request names that no zone matches ("in Atlantis") must not fall back to a default zone.
  const missing: MissingField[] = [];
  // Nor may one it only points at ("where the customer lives", "their local time", "over there").
  const pointed = PLACE_REFERENCE.exec(f.text);
  const open = zoneParams.find((p) => !f.has(p));
  if (pointed && open && zones.length === 0)
    missing.push({
      field: open.name,
      schema: open.schema,
      reason: `the request refers to "${pointed[0]}" but names no place`,
    });
  for (const match of f.text.matchAll(
    /\b(?:in|at|for|to)\s+((?:\p{Lu}[\p{L}'-]+)(?:\s+\p{Lu}[\p{L}'-]+)*)/gu,
  )) {
    const name = match[1] ?? "";
    const start = match.index + match[0].length - name.length;
    const span = { start, end: start + name.length };
    if (!f.free(span) || f.mentions.zones.some((z) => z.start <= start && z.end >= span.end)) continue;
    if (/^(?:UTC|GMT|I)$/.test(name)) continue;
    const param =
      zoneParams.find((p) => !f.has(p) && (zoneParams.length === 1 || /^to|target/.test(p.name))) ??
      zoneParams[0];
    if (param && !missing.some((m) => m.field === param.name))
      missing.push({
        field: param.name,
        schema: param.schema,
        reason: `no time zone is known for "${name}"`,
      });
  }
  return missing;
}

/**
 * A unit: one word, after an optional qualifier ("US gallons", "square feet", "degrees celsius") and with an
 * optional "per <word>" ("miles per hour"). Bounded this way, the words around it ("to C please", "litres
 * are") stay out of it.
 */
const UNIT =
  "((?:(?:degrees?|us|uk|imperial|imp|fluid|fl|nautical|light|square|sq|cubic|short|long|metric|astronomical|watt|kilowatt)\\s+)?°?\\s?[A-Za-z][A-Za-z/°²³]*(?:\\s+per\\s+[A-Za-z]+)?)";
// Starts only where a number starts, so a long run of digits is not rescanned from each of them.
const NUMBER = "(?<![\\d,.])(-?\\d[\\d,]*(?:\\.\\d+)?)";

/**
 * "<number> <unit> to <unit>", "how many <unit> is <number> <unit>", and "<number> <unit> …, … in <unit>?"
 * (the target named at the end) for string from/to parameters.
 */
function fillUnits(f: Filler, params: Param[]): void {
  // The source and target of a conversion are named "from"/"source" and "to"/"target".
  const from = params.find(
    (p) => p.type === "string" && !f.has(p) && p.words.some((w) => w === "from" || w === "source"),
  );
  const to = params.find(
    (p) => p.type === "string" && !f.has(p) && p.words.some((w) => w === "to" || w === "target"),
  );
  const value = params.find((p) => (p.type === "number" || p.type === "integer") && p.required && !f.has(p));
  if (!from || !to) return;
  // "d": group offsets, so each value keeps the span it came from.
  const forward = new RegExp(`${NUMBER}\\s*${UNIT}\\s+(?:to|in|into|as)\\s+${UNIT}(?![\\w°])`, "id");
  const backward = new RegExp(
    `how many\\s+${UNIT}\\s+(?:(?:is|are|make|makes|equals?|=)\\s+)?(?:there\\s+)?(?:in\\s+)?(?:an?\\s+|the\\s+)?${NUMBER}\\s*${UNIT}(?![\\w°])`,
    "id",
  );
  const trailing = new RegExp(
    `${NUMBER}\\s*${UNIT}\\b[^\\d]*?\\b(?:to|in|into|as)\\s+${UNIT}\\s*[?.!]*\\s*$`,
    "id",
  );
  const place = (match: RegExpExecArray, numberGroup: number, fromGroup: number, toGroup: number) => {
    const at = (group: number) => {
      const [start, end] = match.indices?.[group] ?? [match.index, match.index];
      return { start, end, text: match[group] ?? "" };
    };
    const n = at(numberGroup);
    if (value) f.set(value, Number(n.text.replace(/,/g, "")), n, "number before a unit", "units");
    f.set(from, at(fromGroup).text.trim(), at(fromGroup), "unit after the number", "units");
    f.set(to, at(toGroup).text.trim(), at(toGroup), "unit after 'to'", "units");
  };
  // A quantity in two units ("3 feet 4 inches") is not one value in the second: nothing is placed.
  const compound = (match: RegExpExecArray, numberGroup: number) =>
    /\d\s*[A-Za-z"'′″]+\s*(?:and\s+)?$/.test(
      f.text.slice(
        Math.max(0, (match.indices?.[numberGroup]?.[0] ?? 0) - 40),
        match.indices?.[numberGroup]?.[0] ?? 0,
      ),
    );
  const b = backward.exec(f.text);
  // The target named at the end is looked for in a request of a sentence or two, not in pasted data.
  const a = b ? undefined : (forward.exec(f.text) ?? (f.text.length <= 1000 ? trailing.exec(f.text) : null));
  if (b && !compound(b, 2)) place(b, 2, 3, 1);
  else if (a && !compound(a, 1)) place(a, 1, 2, 3);
}

function numericParams(params: Param[]): Param[] {
  return params.filter((p) => p.type === "number" || p.type === "integer");
}

const BACKWARDS = /^\s*[a-z_]+\s+(?:before|ago|earlier|prior to|back from)\b/i;

/** How many mentions of one kind the assignment weighs. */
const MAX_ASSIGNED = 64;

/** Prepositions whose presence in a parameter's description says what a value after them is to it. */
const PREPOSITIONS = new Set([
  "from",
  "to",
  "of",
  "by",
  "per",
  "in",
  "at",
  "for",
  "over",
  "into",
  "after",
  "before",
  "since",
  "until",
  "between",
]);

/** Weights of the words around a value: the parameter's own word outweighs the examples' words, which outweigh a kind. */
const CUE = { ownWord: 3, learned: 2.5, learnedFar: 1, kind: 1.5, preposition: 1, order: 0.5 } as const;

interface Scored {
  weight: number;
  how: string;
  evidence: Evidence;
}

/** Whether a parameter's words name `word` (singular or plural). */
function namesWord(param: Param, word: string): boolean {
  return Boolean(word) && param.words.some((w) => w === word || `${w}s` === word || w === `${word}s`);
}

/** What the words around a number say about one parameter; undefined when they say nothing. */
function numberCue(f: Filler, n: NumberMention, param: Param): Scored | undefined {
  let weight = 0;
  let how = "";
  let evidence: Evidence = "order";
  const take = (w: number, h: string, e: Evidence) => {
    if (w > weight) {
      weight = w;
      how = h;
      evidence = e;
    }
  };
  if (namesWord(param, n.next)) take(CUE.ownWord, `number before "${n.next}"`, "own_word");
  if (namesWord(param, n.previous)) take(CUE.ownWord, `number after "${n.previous}"`, "own_word");
  if (n.next && param.after.has(n.next))
    take(CUE.learned, `number before "${n.next}", as in the examples`, "learned");
  if (n.previous && param.before.has(n.previous))
    take(CUE.learned, `number after "${n.previous}", as in the examples`, "learned");
  const twoBack = /([a-z]+)\s+[a-z]+\s*$/i
    .exec(f.text.slice(Math.max(0, n.start - 30), n.start))?.[1]
    ?.toLowerCase();
  if (twoBack && param.before.has(twoBack) && weight > 0) weight += CUE.learnedFar;
  // "unix time 0", "epoch 86400": a timestamp too short to be recognised by its shape alone.
  const before = f.text.slice(Math.max(0, n.start - 40), n.start);
  if (
    /\b(?:unix|epoch|timestamp)(?:\s+(?:time|timestamp|seconds|ms))?\s*$/i.test(before) &&
    opaqueKindsFor(param).includes("long_number")
  )
    take(CUE.ownWord, "number after 'unix time'", "own_word");
  if (n.percent && /\b(?:percent|percentage|rate|pct)\b/.test(param.hint))
    take(CUE.kind, "percentage", "kind_cue");
  if (n.money && /amount|principal|bill|price|total|cost|value|salary|income|payment/.test(param.hint))
    take(CUE.kind, "money amount", "kind_cue");
  if (weight === 0 && PREPOSITIONS.has(n.previous) && new RegExp(`\\b${n.previous}\\b`).test(param.hint))
    take(CUE.preposition, `number after "${n.previous}", as the description says`, "kind_cue");
  return weight > 0 ? { weight, how, evidence } : undefined;
}

/** Parameters a bare number may go to: numeric ones, and strings that hold an integer ("the integer, e.g. \"255\""). */
function takesNumber(param: Param): boolean {
  if (param.type === "number" || param.type === "integer") return true;
  if (param.type === "array")
    return (
      ["number", "integer"].includes(typeOf((param.schema.items ?? {}) as JsonSchema)) &&
      enumValues(param).length === 0
    );
  return (
    param.type === "string" &&
    enumValues(param).length === 0 &&
    (param.numeric ||
      /^(?:an? |the )?(?:integer|number)\b/.test(String(param.schema.description ?? "").toLowerCase())) &&
    !isDateParam(param)
  );
}

function numberValue(param: Param, n: NumberMention, negative: boolean): unknown {
  const value = negative ? -n.value : n.value;
  if (param.type === "string") return n.text.trim();
  if (param.type === "array") return [value];
  return value;
}

function fitsNumber(param: Param, n: number): boolean {
  if (param.type === "string") return Number.isInteger(n);
  const schema = param.type === "array" ? ((param.schema.items ?? {}) as JsonSchema) : param.schema;
  if ((param.type === "integer" || schema.type === "integer") && !Number.isInteger(n)) return false;
  if (typeof schema.minimum === "number" && n < schema.minimum) return false;
  if (typeof schema.maximum === "number" && n > schema.maximum) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(n)) return false;
  return true;
}

function fillNumbers(f: Filler, params: Param[]): void {
  const inExpression = (n: NumberMention) =>
    f.mentions.expressions.some((e) => n.start >= e.start && n.end <= e.end);
  const free = () => f.mentions.numbers.filter((n) => f.free(n));
  // A list parameter of numbers takes every number when there are several.
  for (const param of params.filter(
    (p) => p.type === "array" && typeOf((p.schema.items ?? {}) as JsonSchema) !== "string",
  )) {
    if (f.has(param) || enumValues(param).length > 0) continue;
    // Numbers joined by operators are an expression ("3*3"), not a list of values.
    const all = free().filter((n) => !inExpression(n) && !n.words);
    // One number is not a list ("15% of my salary" names no data set), and a percentage among plain
    // numbers is a rate applied to them ("12.5% of 480"), not one more data point.
    const mixed = all.some((n) => n.percent) && !all.every((n) => n.percent);
    // Nor is it a list when another parameter's words claim one of the numbers ("from base 2 into base 10").
    const claimed = all
      .slice(0, MAX_ASSIGNED)
      .some((n) => params.some((p) => p !== param && !f.has(p) && takesNumber(p) && numberCue(f, n, p)));
    if (!claimed && all.length >= 2) {
      if (mixed || !all[0]) continue;
      const span = { start: all[0].start, end: all.at(-1)?.end ?? all[0].end };
      f.set(
        param,
        all.map((n) => n.value),
        span,
        "list of numbers",
        "list",
      );
    }
  }
  const open = params.filter((p) => !f.has(p) && takesNumber(p));
  // A request's scalar values are in its first sentences; the numbers of pasted data are no candidates,
  // and the bound keeps the assignment small on long text.
  const numbers = free()
    .filter((n) => !(inExpression(n) && f.mentions.expressions.some((e) => e.text.trim() !== n.text.trim())))
    .slice(0, MAX_ASSIGNED);
  // Order is the weakest cue: only to required parameters (or, for tools that require none, any), and
  // never to a parameter with a shape of its own (a Unix timestamp is a long number).
  const required = open.filter((p) => p.required);
  const byOrder = (required.length > 0 ? required : open).filter(
    (p) => opaqueKindsFor(p).length === 0 && p.type !== "array" && (p.type !== "string" || p.numeric),
  );
  const candidates: Candidate<NumberMention, Param>[] = [];
  const scored = new Map<string, Scored>();
  const plain = numbers.filter((n) => !n.percent);
  for (const [i, n] of numbers.entries()) {
    for (const [j, param] of open.entries()) {
      const negative =
        BACKWARDS.test(f.text.slice(n.end, n.end + 40)) &&
        typeof param.schema.minimum === "number" &&
        param.schema.minimum < 0;
      if (!fitsNumber(param, negative ? -n.value : n.value)) continue;
      let cue = numberCue(f, n, param);
      const k = byOrder.indexOf(param);
      // A number in words counts only what the schema names ("one month": an enum value "months").
      const counts =
        !n.words ||
        params.some((p) =>
          enumValues(p).some((v) => typeof v === "string" && (v === n.next || v === `${n.next}s`)),
        );
      if (!cue && k >= 0 && !n.percent && counts) {
        // Nearer ranks weigh a little more: the order breaks a tie, never a cue.
        const rank = plain.indexOf(n);
        cue = { weight: CUE.order / (1 + Math.abs(rank - k)), how: "number", evidence: "order" };
      }
      if (!cue) continue;
      candidates.push({ mention: n, param, weight: cue.weight });
      scored.set(`${i}:${j}`, cue);
    }
  }
  for (const c of assignBest(numbers, open, candidates)) {
    const cue = scored.get(`${numbers.indexOf(c.mention)}:${open.indexOf(c.param)}`);
    if (!cue) continue;
    const negative =
      BACKWARDS.test(f.text.slice(c.mention.end, c.mention.end + 40)) &&
      typeof c.param.schema.minimum === "number" &&
      c.param.schema.minimum < 0;
    f.set(
      c.param,
      numberValue(c.param, c.mention, negative),
      c.mention,
      negative ? `${cue.how}, counted back` : cue.how,
      cue.evidence,
    );
  }
}

/** Words before a date that say it is where a range starts, or where it ends. */
const STARTS = /\b(?:from|since|starting|start|between|after|begin(?:ning)?)\s*(?:on\s+)?$/i;
const ENDS = /\b(?:to|until|till|through|and|end(?:ing)?|before|by)\s*(?:on\s+)?$/i;

/** Dates to date parameters, all at once: "from"/"since" to a start, "to"/"until" to an end, else in order. */
function placeDates(f: Filler, params: Param[]): void {
  const dates = f.mentions.dates.filter((d) => f.free(d)).slice(0, MAX_ASSIGNED);
  const candidates: Candidate<(typeof dates)[number], Param>[] = [];
  const how = new Map<string, string>();
  for (const [i, d] of dates.entries()) {
    const before = f.text.slice(Math.max(0, d.start - 20), d.start);
    for (const [j, param] of params.entries()) {
      if (param.schema.pattern && !matchesPattern(param, d.value)) continue;
      const isStart = param.words.some((w) => /^(?:start|from|since|begin)/.test(w));
      const isEnd = param.words.some((w) => /^(?:end|to|until|finish)/.test(w));
      let weight = CUE.order / (1 + Math.abs(i - j));
      let why = "date";
      if ((isStart && STARTS.test(before)) || (isEnd && ENDS.test(before))) {
        weight += CUE.ownWord;
        why = "date after a word that names it";
      }
      candidates.push({ mention: d, param, weight });
      how.set(`${i}:${j}`, why);
    }
  }
  for (const c of assignBest(dates, params, candidates))
    f.set(
      c.param,
      c.mention.value,
      c.mention,
      how.get(`${dates.indexOf(c.mention)}:${params.indexOf(c.param)}`) ?? "date",
      "shape",
    );
}

const DATE_REFERENCE =
  /\b(?:my|our|their|his|her|your|the\s+\w+(?:'s)?)\s+(?:\w+\s+){0,2}?(?:date|birthday|anniversary|deadline)\b/i;

/**
 * A date the request points at but does not give ("30 business days after the contract start date") is
 * missing: a date parameter's default (today) would silently answer for another day.
 */
function unplacedDates(f: Filler, params: Param[]): MissingField[] {
  const reference = DATE_REFERENCE.exec(f.text);
  if (!reference) return [];
  const param = params.find((p) => isDateParam(p) && !f.has(p));
  if (!param || f.mentions.dates.some((d) => f.free(d))) return [];
  return [
    {
      field: param.name,
      schema: param.schema,
      reason: `the request refers to "${reference[0]}" but gives no date`,
    },
  ];
}

/**
 * A number the request names that no parameter took, while a numeric parameter it would fit is left to its
 * default ("split 120 three ways" is not a bill for one): which one it is, is the caller's to say.
 */
function unplacedNumbers(f: Filler, params: Param[]): MissingField[] {
  const open = numericParams(params).filter((p) => !f.has(p));
  const inExpression = (n: NumberMention) =>
    f.mentions.expressions.some((e) => n.start >= e.start && n.end <= e.end);
  // A number in words nobody took is usually no value ("one of the", "the two of us").
  const left = f.mentions.numbers.filter((n) => f.free(n) && !inExpression(n) && !n.words);
  const missing: MissingField[] = [];
  for (const n of left) {
    const param = open.find((p) => fitsNumber(p, n.value) && !missing.some((m) => m.field === p.name));
    // Otherwise a value placed by its order alone may be the wrong one of the two ("round 3.14159 to 2
    // decimals" is not a conversion of 2).
    const byOrder = f.filled.find(
      (v) => v.evidence === "order" && v.source === "query" && !missing.some((m) => m.field === v.field),
    );
    const field = param ?? params.find((p) => p.name === byOrder?.field);
    if (field)
      missing.push({
        field: field.name,
        schema: field.schema,
        reason: `the request names ${n.text.trim()} but not which value it is`,
      });
  }
  return missing;
}

function fillBooleans(f: Filler, params: Param[]): void {
  const lower = f.text.toLowerCase();
  for (const param of params.filter((p) => p.type === "boolean" && !f.has(p))) {
    const phrase = param.words.map(escapeRegExp).join("[\\s_-]*");
    const match = new RegExp(`\\b(no|not|without|don't)?\\s*${phrase}\\b`).exec(lower);
    if (match)
      f.set(param, !match[1], { start: match.index, end: match.index + match[0].length }, "named", "flag");
  }
}

/** Data formats a text parameter names: a value that cannot be one is not taken ("'abc'" is no CSV). */
function hasShape(param: Param, text: string): boolean {
  if (param.name === "csv") return /[,;\t|\n]/.test(text);
  if (param.name === "json") {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

function namesEnumValue(params: Param[], token: string): boolean {
  const key = token.toLowerCase().replace(/[_\s-]+/g, "");
  return params.some((p) =>
    enumValues(p).some(
      (v) => typeof v === "string" && key.startsWith(v.toLowerCase().replace(/[_\s-]+/g, "")),
    ),
  );
}

/** Quoted strings, then an opaque blob, then the text after a colon, to the free-text parameters. */
function fillText(f: Filler, params: Param[]): void {
  const open = params.filter(
    (p) => p.type === "string" && !f.has(p) && !Array.isArray(p.schema.enum) && !isDateParam(p),
  );
  const textual = [
    ...open.filter((p) => TEXT_NAMES.test(p.name)),
    ...open.filter((p) => p.required && !TEXT_NAMES.test(p.name)),
  ];
  for (const param of textual) {
    if (f.has(param)) continue;
    const quoted = f.mentions.quoted.find((q) => f.free(q) && hasShape(param, q.text));
    if (quoted) {
      f.set(param, quoted.text, quoted, "quoted", "quoted");
      continue;
    }
    if (!TEXT_NAMES.test(param.name)) continue;
    const blob = f.mentions.opaque.find((o) => f.free(o) && (o.kind === "base64" || o.kind === "hash"));
    if (blob) {
      f.set(param, blob.value, blob, blob.kind, "opaque");
      f.placedOpaque.push(blob.kind);
      continue;
    }
    // One identifier or escaped string that is no enum value of the tool ("convert myVariableName to
    // snake_case": snake_case names the target case).
    const tokens = f.mentions.tokens.filter((t) => f.free(t) && !namesEnumValue(params, t.text));
    const [token] = tokens;
    if (token && tokens.length === 1) {
      f.set(param, token.text, token, "identifier or escaped text", "shape");
      continue;
    }
    const trailing = f.mentions.trailing;
    if (trailing && f.free(trailing) && hasShape(param, trailing.text))
      f.set(param, trailing.text, trailing, "text after the colon", "quoted");
  }
}

function checkString(param: Param, value: unknown): boolean {
  if (typeof value !== "string") return true;
  if (typeof param.schema.pattern === "string" && !matchesPattern(param, value)) return false;
  return true;
}

/**
 * Fills the arguments a schema needs from a request. Supplied arguments are kept as they are; the rest
 * come from the request's text; required ones nothing fits are missing.
 */
export function fillArguments(
  query: string,
  schema: JsonSchema,
  supplied: Record<string, unknown> = {},
  options: FillOptions = {},
): FillResult {
  const learned = learnFromExamples(options.examples);
  const params = paramsOf(schema, learned);
  const f = new Filler(query);
  for (const [field, value] of Object.entries(supplied)) {
    f.args[field] = value;
    f.filled.push({ field, value, source: "agent", evidence: "agent" });
  }
  fillOpaque(f, params);
  fillEnums(f, params);
  fillPhrases(f, params, learned);
  fillTyped(f, params);
  const unplaced = fillZones(f, params);
  fillUnits(f, params);
  fillNumbers(f, params);
  fillBooleans(f, params);
  fillText(f, params);
  const ambiguous = [...unplacedNumbers(f, params), ...unplacedDates(f, params)];
  for (const param of params) {
    if (f.has(param) && !checkString(param, f.args[param.name]) && !(param.name in supplied)) {
      delete f.args[param.name];
      const i = f.filled.findIndex((v) => v.field === param.name);
      if (i >= 0) f.filled.splice(i, 1);
    }
  }
  const missing: MissingField[] = [
    ...unplaced.filter((m) => !(m.field in f.args)),
    ...ambiguous,
    ...params
      .filter((p) => p.required && !(p.name in f.args) && !ambiguous.some((m) => m.field === p.name))
      .map((p) => ({ field: p.name, schema: p.schema, reason: "the request does not say" })),
  ];
  const fromQuery = f.filled.filter((v) => v.source === "query");
  return {
    arguments: f.args,
    filled: f.filled,
    missing,
    placedOpaque: f.placedOpaque,
    confidence: fillConfidence(fromQuery.map((v) => v.evidence ?? "order")),
    suggested: fromQuery,
  };
}

/** One line asking for what is missing, in the words of the schema. */
export function questionFor(tool: string, missing: MissingField[]): string {
  const named = missing.map((m) => {
    const description = typeof m.schema.description === "string" ? ` (${m.schema.description})` : "";
    return `${m.field.replace(/_/g, " ")}${description}`;
  });
  const unknownPlace = missing.find((m) => m.reason.startsWith("no time zone"));
  if (unknownPlace)
    return `Which time zone do you mean? ${unknownPlace.reason}; name a city or an IANA zone such as Europe/Paris.`;
  return `To run ${tool}, what ${named.length > 1 ? "are" : "is"} the ${named.join(" and the ")}?`;
}

export type { OpaqueValue };
