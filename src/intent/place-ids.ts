// Identifiers written after the word they identify ("order 55-8812", "item SH-220", "station KEXP", "path
// prod/db/password", "plans HP-1 and HP-3") to the string parameter, or list of strings, named for that word
// and an identifier (order_id, item_sku, station_id, path, plan_ids).
// Such values are no names and no numbers: the free-text step skips id parameters, and the number step would
// read "55-8812" as two numbers.
import { type Filler, type JsonSchema, type Param, typeOf } from "./filler.ts";
import { namesWord } from "./place-numbers.ts";
import { enumValues, isDateParam, opaqueKindsFor } from "./schema-cues.ts";

/** Words of a parameter's name that say its value is an identifier (or several: "plan_ids"). */
const ID_WORDS = new Set(["id", "sku", "code", "number", "no", "ref", "reference", "key", "path", "handle"]);

/** A token: letters and digits, parts joined by "-", "_", "/", "." or ":" ("SH-220", "prod/db/password"). */
const TOKEN = /(?<![\w@.#/:-])#?(@?[A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)*)(?![\w@/:-]|\.\w)/g;

/** Whether a token looks like an identifier: a digit, all capitals ("KEXP"), a path's slash or a handle's "@". */
const looksLikeId = (token: string) =>
  /\d/.test(token) || /^[A-Z][A-Z0-9]{1,9}$/.test(token) || token.includes("/") || token.startsWith("@");

/** Words that may stand between the named thing and its identifier ("order no. 12", "ticket number 4411"). */
const BETWEEN = /^(?:\s+(?:id|no\.?|number|num|#|sku|code|ref))?[\s:#]*$/i;

/** Between two identifiers of one list. */
const JOINER = /^\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or|&)\s+)$/i;

const singular = (word: string) => word.replace(/(?<=..)s$/, "");

function takesId(param: Param): boolean {
  const text =
    param.type === "string" ||
    (param.type === "array" && typeOf((param.schema.items ?? {}) as JsonSchema) === "string");
  if (!text || enumValues(param).length > 0 || isDateParam(param)) return false;
  if (typeof param.schema.format === "string" || opaqueKindsFor(param).length > 0) return false;
  return param.words.some((w) => ID_WORDS.has(singular(w)));
}

export function fillIdentifiers(f: Filler, params: Param[]): void {
  const open = params.filter((p) => !f.has(p) && takesId(p));
  if (open.length === 0) return;
  const tokens = [...f.text.matchAll(TOKEN)].map((match) => {
    const value = match[1] as string;
    const start = (match.index ?? 0) + match[0].length - value.length;
    return { value, start, end: start + value.length, hash: match[0].startsWith("#") };
  });
  for (const [i, token] of tokens.entries()) {
    if (!looksLikeId(token.value) || !f.free(token)) continue;
    const before = f.text.slice(Math.max(0, token.start - 40), token.start);
    const word = /([A-Za-z]+)((?:\s+(?:id|no\.?|number|num|sku|code|ref))?[\s:#]*)$/i.exec(before);
    if (!word || !BETWEEN.test(word[2] ?? "")) continue;
    // A short bare number after a word is more often a count ("order 5 pizzas") than an identifier.
    const marked = token.hash || /#|\b(?:id|no|number|num)\b/i.test(word[2] ?? "");
    if (/^\d{1,3}$/.test(token.value) && !marked) continue;
    const named = (word[1] as string).toLowerCase();
    const param = open.find((p) => !f.has(p) && namesWord(p, named));
    if (!param) continue;
    if (param.type !== "array") {
      f.set(param, token.value, token, `identifier after "${named}"`, "own_word");
      continue;
    }
    // A list parameter takes the identifiers joined to this one ("plans HP-1 and HP-3").
    const list = [token];
    for (const next of tokens.slice(i + 1).filter((t) => looksLikeId(t.value))) {
      const last = list.at(-1) as typeof token;
      if (!f.free(next) || !JOINER.test(f.text.slice(last.end, next.start))) break;
      list.push(next);
    }
    const span = { start: token.start, end: (list.at(-1) as typeof token).end };
    f.set(
      param,
      list.map((t) => t.value),
      span,
      `identifiers after "${named}"`,
      "own_word",
    );
  }
}
