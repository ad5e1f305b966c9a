// OpenAI strict mode (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): every
// schema has a type; every object lists all its properties as required (optional ones become nullable) and
// sets additionalProperties: false; every array has one items schema; composition is anyOf only; and only
// the keywords the guide lists are used. The converter holds for any JSON Schema a tool may have:
// - a value strict mode cannot describe (no type, an object with free keys, an array without one items
//   schema, or a union with one of these) is asked for as JSON text, and decoded back on the way in;
// - other keywords (maxLength, uniqueItems, ...) are dropped and said in the description; the tool's own
//   schema still validates every call.
import { validateAgainstSchema } from "../catalog/index.ts";

type JsonSchema = Record<string, unknown>;

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** Keywords strict mode accepts besides the structural ones handled below. */
const KEPT = new Set([
  "description",
  "enum",
  "const",
  "pattern",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
/** Said in no description: annotations, not constraints. */
const SILENT = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "default",
  "examples",
  "readOnly",
  "writeOnly",
  "deprecated",
]);
const STRUCTURAL = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "format",
]);
const JSON_TEXT = "Give it as JSON text.";

const isSchema = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function typesOf(schema: JsonSchema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (isSchema(schema.properties)) return ["object"];
  if (isSchema(schema.items)) return ["array"];
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : undefined;
  if (!values) return undefined;
  return [...TYPES].filter((type) => type !== "integer" && values.some((v) => valueFits(v, type)));
}

/** A value strict mode cannot describe: any type, an object with free keys, an array of anything. */
export function isFreeForm(schema: JsonSchema): boolean {
  if (typeof schema.$ref === "string") return false;
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    return ((schema.anyOf ?? schema.oneOf) as unknown[]).some(
      (branch) => isSchema(branch) && isFreeForm(branch),
    );
  if (Array.isArray(schema.allOf)) return false;
  const types = typesOf(schema);
  if (!types || types.some((t) => !TYPES.has(t))) return true;
  if (types.includes("object") && !isSchema(schema.properties) && schema.additionalProperties !== false)
    return true;
  return types.includes("array") && !isSchema(schema.items);
}

function withNote(description: unknown, note: string): string {
  if (typeof description !== "string" || !description) return note;
  return /[.!?)]$/.test(description) ? `${description} ${note}` : `${description}. ${note}`;
}

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === "string") {
    const next: JsonSchema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum)) next.enum = [...schema.enum, null];
    return next;
  }
  if (Array.isArray(type)) return type.includes("null") ? schema : { ...schema, type: [...type, "null"] };
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    return branches.some((b) => b.type === "null")
      ? schema
      : { ...schema, anyOf: [...branches, { type: "null" }] };
  }
  return { anyOf: [schema, { type: "null" }] };
}

/** allOf's object branches merged into one (strict mode has no allOf); other branches are left to validation. */
function mergeAllOf(schema: JsonSchema): JsonSchema {
  const { allOf, ...rest } = schema;
  const merged: JsonSchema = { ...rest };
  for (const branch of (allOf as unknown[]).filter(isSchema)) {
    if (isSchema(branch.properties))
      merged.properties = { ...(merged.properties as JsonSchema | undefined), ...branch.properties };
    if (Array.isArray(branch.required))
      merged.required = [...new Set([...((merged.required as string[]) ?? []), ...branch.required])];
    if (merged.type === undefined && branch.type !== undefined) merged.type = branch.type;
  }
  return merged;
}

/** The schema as OpenAI's strict function calling and structured outputs accept it. */
export function strictSchema(schema: JsonSchema): JsonSchema {
  const out = convert(schema);
  for (const key of ["$defs", "definitions"] as const)
    if (isSchema(schema[key]))
      out[key] = Object.fromEntries(
        Object.entries(schema[key]).map(([name, def]) => [name, isSchema(def) ? convert(def) : def]),
      );
  return out;
}

function convert(input: JsonSchema): JsonSchema {
  const schema = Array.isArray(input.allOf) ? mergeAllOf(input) : input;
  if (typeof schema.$ref === "string")
    return typeof schema.description === "string"
      ? { $ref: schema.$ref, description: schema.description }
      : { $ref: schema.$ref };
  if (isFreeForm(schema)) {
    const types = typesOf(schema) ?? [];
    const text: JsonSchema = { type: "string", description: withNote(schema.description, JSON_TEXT) };
    return types.includes("null") ? nullable(text) : text;
  }
  const types = typesOf(schema) ?? [];
  const concrete = types.filter((t) => t !== "null");
  const multiType = !Array.isArray(schema.anyOf ?? schema.oneOf) && concrete.length > 1;
  if (multiType) {
    // One branch per type, each with its type's keywords: an object branch and an array branch each
    // need their own.
    const union: JsonSchema = {
      anyOf: concrete.map((type) => convert({ ...schemaOfType(schema, type), type })),
    };
    if (typeof schema.description === "string") union.description = schema.description;
    return types.includes("null") ? nullable(union) : union;
  }
  const dropped: string[] = [];
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = value;
    else if (key === "format" && FORMATS.has(String(value))) out.format = value;
    else if (!STRUCTURAL.has(key) || key === "format") {
      if (!SILENT.has(key)) dropped.push(`${key}: ${JSON.stringify(value)}`);
    }
  }
  if (dropped.length > 0) out.description = withNote(out.description, `(${dropped.join(", ")})`);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    out.anyOf = branches.filter(isSchema).map(convert);
    return out;
  }
  out.type = types.length === 1 ? types[0] : types;
  if (concrete[0] === "object") {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, value]) => {
        const inner = convert(value);
        return [key, required.has(key) ? inner : nullable(inner)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (concrete[0] === "array") out.items = convert(schema.items as JsonSchema);
  return out;
}

function valueFits(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "null") return value === null;
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isSchema(value);
  return typeof value === type;
}

/** Keywords that apply to one type only. */
const TYPE_KEYWORDS: Record<string, string[]> = {
  string: ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  object: [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
  ],
  array: [
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
  ],
};

/** The keywords of a multi-type schema that belong to one of its types. */
function schemaOfType(schema: JsonSchema, type: string): JsonSchema {
  const { type: _, description: __, enum: values, ...own } = schema;
  if (Array.isArray(values)) own.enum = values.filter((v) => valueFits(v, type));
  const mine = type === "integer" ? "number" : type;
  for (const [owner, keys] of Object.entries(TYPE_KEYWORDS))
    if (owner !== mine) for (const key of keys) delete own[key];
  return own;
}

/**
 * Arguments as the tool's own schema means them. Strict mode made every optional field required and
 * nullable, so a model sends `null` for "not given": such a `null` is dropped when the original schema made
 * the field optional and does not itself accept null (a null for a required field is left for validation).
 * A free-form value asked for as JSON text is decoded when it parses to an object or an array, or when the
 * text itself is not a value the field takes.
 */
export function fromStrictArguments(schema: JsonSchema, value: unknown): unknown {
  if (typeof value === "string" && isFreeForm(schema)) {
    const decoded = parseJson(value);
    if (decoded.ok && (typeof decoded.value === "object" || validateAgainstSchema(schema, value).length > 0))
      return decoded.value;
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    return isSchema(items) ? value.map((v) => fromStrictArguments(items, v)) : value;
  }
  if (!value || typeof value !== "object" || !isSchema(schema.properties)) return value;
  const properties = schema.properties as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const property = properties[key];
    if (field === null && property && !required.has(key) && validateAgainstSchema(property, null).length > 0)
      continue;
    out[key] = property ? fromStrictArguments(property, field) : field;
  }
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
