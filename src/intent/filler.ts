// The state of filling one call: the request's mentions, the values placed so far with their spans and
// evidence, and the spans taken; and each parameter of the schema with the words that describe it.
import type { Doubt } from "./bare-confidence.ts";
import type { Evidence } from "./confidence.ts";
import type { ExampleCall, LearnedCues } from "./examples.ts";
import { findMentions, type Mentions } from "./mentions.ts";
import type { OpaqueKind, Span } from "./opaque.ts";
export type JsonSchema = Record<string, unknown>;

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
  /**
   * The values, in order, when the request names several for this single-valued field ("in Paris and
   * London"): each as written, with its span, so that one call per value can be made.
   */
  several?: { text: string; start: number; end: number }[];
}

export interface FillResult {
  arguments: Record<string, unknown>;
  filled: FilledValue[];
  missing: MissingField[];
  /** Opaque values of the request that some parameter took: evidence that the tool fits. */
  placedOpaque: OpaqueKind[];
  /**
   * How sure the filler is of the values it read, 0 to 1, from the confidence table (confidence.ts). A
   * call below `bar` is proposed, not run: its values are `suggested`, each with its span.
   */
  confidence: number;
  /** The bar `confidence` must reach for the call to run: the described or the bare tools' (bare-confidence.ts). */
  bar: number;
  /** What makes the call doubtful beyond its values' evidence; only a bare tool's confidence weighs them. */
  doubts: Doubt[];
  /** The values read from the request, with their spans, for a caller to confirm in one step. */
  suggested: FilledValue[];
  /**
   * What the call as a whole says about its values, beyond each value's evidence (`unused_value`: the
   * request states a value the call has no place for); rows of the confidence table, in `confidence`.
   */
  signals: Evidence[];
  /** The stated values the call leaves unused, with their spans. */
  unused: { start: number; end: number; text: string }[];
}

export interface FillOptions {
  /** The tool's example calls: how its values are phrased (examples.ts). */
  examples?: readonly ExampleCall[];
  /** The tool has neither example requests nor example calls: its own confidence table and bar apply. */
  bare?: boolean;
  /** The router matched the tool only weakly: a doubt for a bare tool (bare-confidence.ts). */
  weakMatch?: boolean;
  /** The tool's output schema: what it answers (a conversion's target it names is used, not left out). */
  output?: JsonSchema;
  /** The tool's words name none of what the request asks for (asked-for.ts): a doubt for a bare tool. */
  askUnnamed?: boolean;
  /** The request is one part of a message split in several: a doubt for a bare tool. */
  splitPart?: boolean;
}

export interface Param {
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

export function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return (type.find((t) => t !== "null") as string | undefined) ?? "any";
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")) return "string";
  return "any";
}

export function paramsOf(schema: JsonSchema, learned: LearnedCues): Param[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, child]) => ({
    name,
    schema: child,
    required: required.has(name),
    type: typeOf(child),
    hint: `${name.replace(/_/g, " ")} ${typeof child.description === "string" ? child.description : ""}`.toLowerCase(),
    // "year1_revenue" is the words year, 1 and revenue.
    words: name.split(/[_\s-]+|(?<=[a-z])(?=[A-Z])|(?<=[a-zA-Z])(?=\d)/).map((w) => w.toLowerCase()),
    numeric: learned.numeric.has(name),
    before: learned.before.get(name) ?? new Set<string>(),
    after: learned.after.get(name) ?? new Set<string>(),
  }));
}

export class Filler {
  readonly mentions: Mentions;
  readonly args: Record<string, unknown> = {};
  readonly filled: FilledValue[] = [];
  readonly placedOpaque: OpaqueKind[] = [];
  /** Call-level signals the placement steps raised (rows of the confidence table). */
  readonly signals = new Set<Evidence>();
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
  /** Takes a span from the other parameters without placing a value from it. */
  claim(span: Span): void {
    this.used.push(span);
  }
  has(param: Param): boolean {
    return param.name in this.args;
  }
}
