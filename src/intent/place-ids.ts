// Identifiers written after the word they identify ("order 55-8812", "item SH-220", "SKU AB12", "ticket
// #4411") to the string parameter named for that word and an identifier (order_id, item_sku, ticket_number).
// Such values are no names and no numbers: the free-text step skips id parameters, and the number step would
// read "55-8812" as two numbers.
import type { Filler, Param } from "./filler.ts";
import { namesWord } from "./place-numbers.ts";
import { enumValues, isDateParam, opaqueKindsFor } from "./schema-cues.ts";

/** Words of a parameter's name that say its value is an identifier. */
const ID_WORDS = new Set(["id", "sku", "code", "number", "no", "ref", "reference", "key"]);

/** A token with a digit: letters and digits, parts joined by "-", "_", "/" or "." ("SH-220", "55-8812", "A1B2"). */
const TOKEN = /(?<![\w@.#/-])#?((?=[A-Za-z0-9_./-]*\d)[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*)(?![\w@/-]|\.\w)/g;

/** Words that may stand between the named thing and its identifier ("order no. 12", "ticket number 4411"). */
const BETWEEN = /^(?:\s+(?:id|no\.?|number|num|#|sku|code|ref))?[\s:#]*$/i;

function takesId(param: Param): boolean {
  if (param.type !== "string" || enumValues(param).length > 0 || isDateParam(param)) return false;
  if (typeof param.schema.format === "string" || opaqueKindsFor(param).length > 0) return false;
  return param.words.some((w) => ID_WORDS.has(w));
}

export function fillIdentifiers(f: Filler, params: Param[]): void {
  const open = params.filter((p) => !f.has(p) && takesId(p));
  if (open.length === 0) return;
  for (const match of f.text.matchAll(TOKEN)) {
    const value = match[1] as string;
    const start = (match.index ?? 0) + match[0].length - value.length;
    const span = { start, end: start + value.length };
    if (!f.free(span)) continue;
    const before = f.text.slice(Math.max(0, start - 40), start);
    const word = /([A-Za-z]+)((?:\s+(?:id|no\.?|number|num|sku|code|ref))?[\s:#]*)$/i.exec(before);
    if (!word || !BETWEEN.test(word[2] ?? "")) continue;
    // A short bare number after a word is more often a count ("order 5 pizzas") than an identifier.
    const marked = /[#]|\b(?:id|no|number|num)\b/i.test(`${word[2]}${match[0].startsWith("#") ? "#" : ""}`);
    if (/^\d{1,3}$/.test(value) && !marked) continue;
    const named = (word[1] as string).toLowerCase();
    const param = open.find((p) => !f.has(p) && namesWord(p, named));
    if (!param) continue;
    f.set(param, value, span, `identifier after "${named}"`, "own_word");
  }
}
