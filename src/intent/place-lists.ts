// Lists written as data ("[1, 2, 3]", "(40.71, -74.00)") to list parameters whose items they fit, in the
// order of both: the first list to the first such parameter.
import { type Filler, type JsonSchema, type Param, typeOf } from "./filler.ts";
import { findLists } from "./recognisers/lists.ts";
import { enumValues } from "./schema-cues.ts";

/** Whether every item of `value` fits the item schema (numbers, strings, or lists of them). */
function fits(items: JsonSchema, value: unknown[]): boolean {
  const type = typeOf(items);
  return value.every((v) => {
    if (type === "number") return typeof v === "number";
    if (type === "integer") return typeof v === "number" && Number.isInteger(v);
    if (type === "string") return typeof v === "string";
    if (type === "array") return Array.isArray(v) && fits((items.items ?? {}) as JsonSchema, v);
    return type === "any";
  });
}

export function fillLists(f: Filler, params: Param[]): void {
  const open = params.filter((p) => p.type === "array" && !f.has(p) && enumValues(p).length === 0);
  if (open.length === 0) return;
  const lists = findLists(f.text).filter((l) => f.free(l));
  for (const param of open) {
    const items = (param.schema.items ?? {}) as JsonSchema;
    const list = lists.find((l) => f.free(l) && fits(items, l.value));
    if (list) f.set(param, list.value, list, "list written as data", "list");
  }
}
