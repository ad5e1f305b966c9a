// Identifiers written after the word they identify ("order 55-8812", "item SH-220", "station KEXP", "path
// prod/db/password", "plans HP-1 and HP-3") to the string parameter, or list of strings, named for that word
// and an identifier (order_id, item_sku, station_id, path, plan_ids).
// Such values are no names and no numbers: the free-text step skips id parameters, and the number step would
// read "55-8812" as two numbers.
import { type Filler, type JsonSchema, type Param, typeOf } from "./filler.ts";
import { namesWord } from "./place-numbers.ts";
import { enumValues, isDateParam, opaqueKindsFor, TEXT_NAMES } from "./schema-cues.ts";

/** Words of a parameter's name that say its value is an identifier (or several: "plan_ids"). */
const ID_WORDS = new Set(["id", "sku", "code", "number", "no", "ref", "reference", "key", "path", "handle"]);

/** A token: letters and digits, parts joined by "-", "_", "/", "." or ":" ("SH-220", "prod/db/password"). */
// Not a part of an expression: "2x" of "2x^2" is no identifier.
const TOKEN = /(?<![\w@.#/:^*+=-])#?(@?[A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)*)(?![\w@/:^*+=(-]|\.\w)/g;

/** Whether a token looks like an identifier: a digit, all capitals ("KEXP"), a path's slash or a handle's "@". */
const looksLikeId = (token: string) =>
  /\d/.test(token) || /^[A-Z][A-Z0-9]{1,9}$/.test(token) || token.includes("/") || token.startsWith("@");

/** A name joined by "-" or "_" ("payments-api", "acme-prod-logs"): an identifier beside its word. */
const looksLikeName = (token: string) => /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+$/.test(token);

/** Words that may stand between the named thing and its identifier ("order no. 12", "device id is X"). */
const BETWEEN = /^(?:\s+(?:id|no\.?|number|num|#|sku|code|ref))?(?:\s+(?:is|=))?[\s:#=]*$/i;

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

/** A string parameter named for one thing (namespace, bucket, deployment), no free text or enum. */
function namesAThing(param: Param): boolean {
  return (
    param.type === "string" &&
    // "deployment_name" is named for a deployment as much as "deployment" is.
    (param.words.length === 1 || (param.words.length === 2 && param.words[1] === "name")) &&
    enumValues(param).length === 0 &&
    !isDateParam(param) &&
    typeof param.schema.format !== "string" &&
    opaqueKindsFor(param).length === 0 &&
    !TEXT_NAMES.test(param.name) &&
    !FREE_TEXT.test(param.name) &&
    !NOT_A_THING.test(param.name) &&
    param.name.length >= 3
  );
}

/** Parameters whose value is prose or a name of a person or place, never an identifier. */
const FREE_TEXT =
  /^(?:title|name|subject|description|summary|comment|note|notes|reason|city|country|location|address|keyword|q|query|search|language|lang|function|formula|equation)$/;

/** Names that are a direction or a role, not a thing ("from", "to", "source"): a unit or zone takes them. */
const NOT_A_THING =
  /^(?:from|to|in|at|by|for|of|on|into|with|via|as|source|target|base|zone|timezone|unit|units|mode|type|format|time|date)$/;

export function fillIdentifiers(f: Filler, params: Param[]): void {
  const open = params.filter((p) => !f.has(p) && (takesId(p) || namesAThing(p)));
  if (open.length === 0) return;
  placeNamedIds(f, open);
}

/**
 * The one identifier of capitals and four or more digits the request writes ("truck TRK-2210"), when a single required
 * identifier parameter of a bare tool is left open and at most one other takes identifiers: the word before
 * it need not be the parameter's. A described tool's examples teach it the words instead; a
 * "14-character" password is no identifier.
 */
export function fillLoneId(f: Filler, params: Param[]): void {
  const ids = params.filter((p) => takesId(p) && p.type === "string");
  const open = ids.filter((p) => !f.has(p));
  const param = open[0];
  if (open.length !== 1 || !param?.required || ids.length > 2) return;
  const tokens = [...f.text.matchAll(LONE_TOKEN)]
    .map((m) => ({ value: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }))
    .filter((t) => /\d{4}/.test(t.value) && /[A-Z]{2}/.test(t.value) && !/[a-z]/.test(t.value) && f.free(t));
  const token = tokens[0];
  if (tokens.length === 1 && token)
    f.set(param, token.value, token, "the one identifier written", "kind_cue");
}

/** A token of letters and digits joined by "-" or "_", which a colon or a full stop may end ("TRK-0918:"). */
const LONE_TOKEN = /(?<![\w@.#/:^*+=-])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+(?![\w@/^*+=(-]|[.:]\w)/g;

function placeNamedIds(f: Filler, open: Param[]): void {
  // Only a parameter named for one thing takes a plain word before its name ("the prod namespace").
  const nameFirst = open.filter(namesAThing);
  const tokens = [...f.text.matchAll(TOKEN)].map((match) => {
    const value = match[1] as string;
    const start = (match.index ?? 0) + match[0].length - value.length;
    return { value, start, end: start + value.length, hash: match[0].startsWith("#") };
  });
  for (const [i, token] of tokens.entries()) {
    if (!f.free(token)) continue;
    // "the payments-api deployment", "the prod namespace": a name right before the word it names.
    const after = /^\s+([A-Za-z]+)\b/.exec(f.text.slice(token.end, token.end + 30))?.[1]?.toLowerCase();
    const namedAfter = after ? nameFirst.find((p) => !f.has(p) && namesWord(p, after)) : undefined;
    // Not a plain word: "the online game" names a kind of game, not the game.
    if (namedAfter && (looksLikeId(token.value) || looksLikeName(token.value))) {
      f.set(namedAfter, token.value, token, `name before "${after}"`, "own_word");
      continue;
    }
    if (!looksLikeId(token.value) && !(looksLikeName(token.value) && nameFirst.length > 0)) continue;
    const before = f.text.slice(Math.max(0, token.start - 40), token.start);
    const word = /([A-Za-z]+)((?:\s+(?:id|no\.?|number|num|sku|code|ref))?(?:\s+(?:is|=))?[\s:#=]*)$/i.exec(
      before,
    );
    if (!word || !BETWEEN.test(word[2] ?? "")) continue;
    // A short bare number after a word is more often a count ("order 5 pizzas") than an identifier.
    const marked = token.hash || /#|\b(?:id|no|number|num)\b/i.test(word[2] ?? "");
    if (/^\d{1,3}$/.test(token.value) && !marked) continue;
    // The word before, or the identifier word after it ("try code SPRING25": a "code" parameter).
    const words = [word[1] as string, ...((word[2] ?? "").match(/[A-Za-z]+/g) ?? [])].map((w) =>
      w.toLowerCase(),
    );
    const param = words
      .map((w) => open.find((p) => !f.has(p) && namesWord(p, w)))
      .find((p) => p !== undefined);
    const named = words.find((w) => param && namesWord(param, w)) ?? "";
    if (!param) continue;
    // A hyphenated name is an identifier only for a parameter named for one thing ("bucket acme-logs"),
    // not for an id ("order new-style shoes").
    if (!looksLikeId(token.value) && !namesAThing(param)) continue;
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
