// BFCL's AST check of one call against one acceptable ground-truth call: the same function; every parameter
// given is one the function has, with an acceptable value; every parameter left out may be ("" among its
// values). Strings are compared after removing spaces and ,./-_*^ and lower-casing; an integer is an
// acceptable number, a fractional number is no integer. Nested objects in the ground truth hold acceptable
// values per key, as the top level does. Written here because BFCL's checker is Python.
import type { GroundTruthCall } from "./files.ts";

type Schema = Record<string, unknown>;

export interface MadeCall {
  name: string;
  arguments: Record<string, unknown>;
}

const STRIPPED = /[\s,./\-_*^]/g;
const standard = (text: string) => text.replace(STRIPPED, "").toLowerCase();

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function typeOf(schema: Schema | undefined): string | undefined {
  return typeof schema?.type === "string" ? schema.type : undefined;
}

function itemSchema(schema: Schema | undefined, index: number): Schema | undefined {
  const items = schema?.items;
  if (Array.isArray(items)) return items[index] as Schema | undefined;
  return isRecord(items) ? items : undefined;
}

function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  const properties = schema?.properties;
  return isRecord(properties) && isRecord(properties[key]) ? properties[key] : undefined;
}

/** Whether `value` equals one acceptable `expected` value (itself possibly a nested object of choices). */
function matchesOne(value: unknown, expected: unknown, schema: Schema | undefined): boolean {
  if (isRecord(expected)) {
    if (!isRecord(value)) return false;
    if (Object.keys(value).some((key) => !(key in expected))) return false;
    return Object.entries(expected).every(([key, choices]) => {
      const options = Array.isArray(choices) ? choices : [choices];
      return key in value
        ? options.some((o) => o !== "" && matchesOne(value[key], o, propertySchema(schema, key)))
        : options.includes("");
    });
  }
  if (Array.isArray(expected))
    return (
      Array.isArray(value) &&
      value.length === expected.length &&
      expected.every((e, i) => matchesOne(value[i], e, itemSchema(schema, i)))
    );
  if (typeof expected === "string")
    return typeof value === "string" && standard(value) === standard(expected);
  if (typeof expected === "number") {
    if (typeof value !== "number") return false;
    if (typeOf(schema) === "integer" && !Number.isInteger(value)) return false;
    return value === expected;
  }
  return value === expected;
}

/** Whether `call` is `truth` under BFCL's AST rules; `schema` is the function's input schema. */
export function callMatches(call: MadeCall, truth: GroundTruthCall, schema: Schema): boolean {
  const [name, parameters] = Object.entries(truth)[0] ?? [];
  if (name === undefined || parameters === undefined || call.name !== name) return false;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (required.some((key) => !(key in call.arguments))) return false;
  for (const [key, value] of Object.entries(call.arguments)) {
    if (!(key in properties)) return false;
    const choices = parameters[key];
    if (choices === undefined) return false;
    if (!choices.some((c) => c !== "" && matchesOne(value, c, propertySchema(schema, key)))) return false;
  }
  return Object.entries(parameters).every(([key, choices]) => key in call.arguments || choices.includes(""));
}

/**
 * Whether the calls made are exactly the ground truth's, in any order: each truth call matched by its own
 * made call, and no call left over.
 */
export function callsMatch(
  calls: MadeCall[],
  truth: GroundTruthCall[],
  schemaOf: (name: string) => Schema | undefined,
): boolean {
  if (calls.length !== truth.length) return false;
  // Augmenting paths (Kuhn's matching): a greedy pairing could take the one call another truth needed.
  const owner = new Array<number>(calls.length).fill(-1);
  const fits = truth.map((t) =>
    calls.map((c) => {
      const schema = schemaOf(c.name);
      return schema !== undefined && callMatches(c, t, schema);
    }),
  );
  const assign = (t: number, seen: boolean[]): boolean => {
    for (let c = 0; c < calls.length; c++) {
      if (!fits[t]?.[c] || seen[c]) continue;
      seen[c] = true;
      if (owner[c] === -1 || assign(owner[c] as number, seen)) {
        owner[c] = t;
        return true;
      }
    }
    return false;
  };
  return truth.every((_, t) => assign(t, new Array<boolean>(calls.length).fill(false)));
}

/** Whether the call matches some call of the ground truth. */
export function matchesAny(call: MadeCall, truth: GroundTruthCall[], schema: Schema | undefined): boolean {
  return schema !== undefined && truth.some((t) => callMatches(call, t, schema));
}
