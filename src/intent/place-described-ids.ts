// Identifiers a parameter's description shows the shape of: an example ("Loyalty member ID, e.g.
// 'LY-00001'") takes the one token of that shape the request writes ("account LY-55820"), whatever word
// comes before it; and "the last four digits" takes the four digits written after "ending in".
import type { Filler, Param } from "./filler.ts";
import { enumValues, isDateParam } from "./schema-cues.ts";

/** An example value in a description: after "e.g.", "such as", "like" or "for example", quoted or not. */
const EXAMPLE =
  /(?:e\.g\.|eg\.|such as|like|for example|example:?)\s*[`'"“‘]?([A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)*)/gi;

/** A token of the request, parts joined by "-", "_", "/", "." or ":". */
const TOKEN = /(?<![\w@.#/:-])([A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)*)(?![\w@/:-]|\.\w)/g;

/** The shape of an example identifier: its runs of capitals, small letters and digits, its joiners literal. */
function shapeOf(example: string): RegExp | undefined {
  // Only a mix of letters and digits has a shape worth matching: "42" or "Paris" says nothing.
  if (!/\d/.test(example) || !/[A-Za-z]/.test(example)) return undefined;
  const parts = example.match(/[A-Z]+|[a-z]+|\d+|[-_./:]/g) ?? [];
  const body = parts
    .map((part) => {
      if (/^[A-Z]+$/.test(part)) return `[A-Z]{${part.length}}`;
      if (/^[a-z]+$/.test(part)) return "[a-z]+";
      if (/^\d+$/.test(part)) return `\\d{${Math.max(1, part.length - 2)},${part.length + 2}}`;
      return `\\${part}`;
    })
    .join("");
  return new RegExp(`^${body}$`);
}

const takesText = (p: Param) =>
  p.type === "string" && enumValues(p).length === 0 && !isDateParam(p) && typeof p.schema.format !== "string";

export function fillDescribedIds(f: Filler, params: Param[]): void {
  const open = params.filter((p) => !f.has(p) && takesText(p));
  const shaped = open.flatMap((param) => {
    const description = typeof param.schema.description === "string" ? param.schema.description : "";
    const shapes = [...description.matchAll(EXAMPLE)].flatMap((m) => shapeOf(m[1] as string) ?? []);
    return shapes.length > 0 ? [{ param, shapes }] : [];
  });
  // Most descriptions show no shape: the request is then not read for tokens at all.
  if (shaped.length > 0) placeShaped(f, shaped);
  fillLastDigits(f, params);
}

/** The one token of each described shape to its parameter. */
function placeShaped(f: Filler, shaped: { param: Param; shapes: RegExp[] }[]): void {
  const tokens = [...f.text.matchAll(TOKEN)].map((m) => ({
    value: m[1] as string,
    start: m.index ?? 0,
    end: (m.index ?? 0) + (m[1] as string).length,
  }));
  for (const { param, shapes } of shaped) {
    const fits = tokens.filter((t) => f.free(t) && shapes.some((shape) => shape.test(t.value)));
    // Two parameters of one shape, or two tokens of it, are told apart by the words: not here.
    const rivals = shaped.filter(
      (s) => s.param !== param && s.shapes.some((r) => fits.some((t) => r.test(t.value))),
    );
    const token = fits[0];
    if (fits.length !== 1 || rivals.length > 0 || !token) continue;
    f.set(param, token.value, token, "identifier of the shape its description shows", "own_word");
  }
}

/** A parameter for the last four digits of a card or an account. */
const LAST_FOUR = /last[\s_-]*(?:4|four)\b/i;

/** Four digits after "ending in" or "last four digits": for the one parameter that takes them, or by from/to. */
function fillLastDigits(f: Filler, params: Param[]): void {
  const open = params.filter((p) => !f.has(p) && takesText(p) && LAST_FOUR.test(`${p.name} ${p.hint}`));
  if (open.length === 0) return;
  const written = [
    ...f.text.matchAll(
      /\b(?:ending|ends)\s+(?:in|with)\s+(\d{4})\b|\blast\s+(?:4|four)(?:\s+digits)?(?:\s+(?:are|is|of))?\s*:?\s*(\d{4})\b/gi,
    ),
  ].map((m) => {
    const value = (m[1] ?? m[2]) as string;
    const start = (m.index ?? 0) + m[0].length - value.length;
    return {
      value,
      start,
      end: start + value.length,
      before: f.text.slice(Math.max(0, (m.index ?? 0) - 40), m.index),
    };
  });
  const free = written.filter((w) => f.free(w));
  if (open.length === 1 && free.length === 1 && open[0] && free[0]) {
    f.set(open[0], free[0].value, free[0], 'four digits after "ending in"', "own_word");
    return;
  }
  // "from my checking ending in 4421 to my savings ending in 9083": the nearest "from"/"to" before each.
  for (const digits of free) {
    const direction = /\b(from|to|into)\b(?!.*\b(?:from|to|into)\b)/i.exec(digits.before)?.[1]?.toLowerCase();
    const word = direction === "into" ? "to" : direction;
    const param = word ? open.find((p) => !f.has(p) && p.words.includes(word)) : undefined;
    if (param) f.set(param, digits.value, digits, `four digits after "${word} … ending in"`, "own_word");
  }
}
