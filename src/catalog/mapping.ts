// Applies a binding's `map` to a provider's answer. One walk over the mapping: its size, not the answer's,
// bounds the work (an `each` visits the items of one array). A value that cannot be converted is an issue
// at its output path; an absent value leaves its field out, so the outputSchema's `required` reports it.
import type { SchemaIssue } from "./json-schema.ts";
import { CONVERSIONS, type FieldMap, type OutputMap } from "./mapping-schema.ts";

export class MappingError extends Error {
  readonly issues: SchemaIssue[];
  constructor(issues: SchemaIssue[]) {
    super(`the answer does not map: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`);
    this.name = "MappingError";
    this.issues = issues;
  }
}

type Args = Readonly<Record<string, unknown>>;

/** The value at a dot path; "$args.x" starts at the arguments, "$" is the root itself. */
export function readPath(root: unknown, path: string, args: Args): unknown {
  const keys = path.split(".");
  let current: unknown = root;
  if (keys[0] === "$args") {
    current = args;
    keys.shift();
  } else if (keys[0] === "$") keys.shift();
  for (const key of keys) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

class Mapper {
  readonly issues: SchemaIssue[] = [];
  readonly #args: Args;

  constructor(args: Args) {
    this.#args = args;
  }

  object(fields: Record<string, FieldMap>, root: unknown, at: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, spec] of Object.entries(fields)) {
      const value = this.field(spec, root, at ? `${at}.${name}` : name);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  field(spec: FieldMap, root: unknown, at: string): unknown {
    if ("const" in spec) return spec.const;
    if (spec.object) return this.object(spec.object, root, at);
    if (spec.switch !== undefined) {
      const key = readPath(root, spec.switch, this.#args);
      // The key comes from the provider's answer: "constructor" or "toString" must not pick Object's own.
      const cases = spec.cases;
      const chosen =
        (key !== undefined && cases && Object.hasOwn(cases, String(key)) && cases[String(key)]) ||
        spec.otherwise;
      return chosen === undefined ? undefined : this.field(chosen, root, at);
    }
    return this.#path(spec, root, at);
  }

  #path(spec: FieldMap, root: unknown, at: string): unknown {
    let value = readPath(root, spec.path as string, this.#args);
    if (spec.each !== undefined && value !== undefined && value !== null) {
      if (!Array.isArray(value)) return this.#fail(at, `"${spec.path}" is not an array`);
      const each = spec.each;
      value = value.map((item, i) => this.field(each, item, `${at}.${i}`) ?? null);
    }
    if (spec.lookup !== undefined && value !== undefined && value !== null)
      value = Object.hasOwn(spec.lookup, String(value)) ? spec.lookup[String(value)] : undefined;
    if ((value === undefined || value === null) && "default" in spec) value = spec.default;
    if (value === undefined || value === null) return value;
    if (spec.as !== undefined) value = this.#as(spec.as, value, at);
    if (spec.text !== undefined) {
      if (typeof value !== "string") return this.#fail(at, `text "${spec.text}" needs a string`);
      value =
        spec.text === "lower"
          ? value.toLowerCase()
          : spec.text === "upper"
            ? value.toUpperCase()
            : value.trim();
    }
    const arithmetic =
      spec.convert !== undefined ||
      spec.scale !== undefined ||
      spec.offset !== undefined ||
      spec.round !== undefined;
    if (arithmetic) {
      if (typeof value !== "number")
        return this.#fail(at, `${JSON.stringify(value)} is not a number to convert`);
      if (spec.convert !== undefined) value = CONVERSIONS[spec.convert](value);
      if (spec.scale !== undefined) value = (value as number) * spec.scale;
      if (spec.offset !== undefined) value = (value as number) + spec.offset;
      if (spec.round !== undefined) value = Number((value as number).toFixed(spec.round));
    }
    return value;
  }

  #as(type: NonNullable<FieldMap["as"]>, value: unknown, at: string): unknown {
    switch (type) {
      case "string":
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      case "boolean":
        if (typeof value === "boolean") return value;
        if (value === "true" || value === 1 || value === "1") return true;
        if (value === "false" || value === 0 || value === "0") return false;
        return this.#fail(at, `${JSON.stringify(value)} is not a boolean`);
      default: {
        const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
        if (typeof number !== "number" || !Number.isFinite(number))
          return this.#fail(at, `${JSON.stringify(value)} is not a number`);
        return type === "integer" ? Math.round(number) : number;
      }
    }
  }

  #fail(path: string, message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }
}

/** The canonical output a mapping makes of an answer; throws a MappingError naming every bad field. */
export function applyMapping(map: OutputMap, answer: unknown, args: Args): Record<string, unknown> {
  const mapper = new Mapper(args);
  const output = mapper.object(map, answer, "");
  if (mapper.issues.length > 0) throw new MappingError(mapper.issues);
  return output;
}
