// Checks each binding's `map` against the tool's outputSchema before any answer arrives, where the schema
// says enough: fields the schema does not have, required fields left unmapped, values of the wrong type,
// and arguments the inputSchema does not declare. Parts of a schema this cannot follow (oneOf, anyOf, a
// $ref outside the schema) are left to the check of each mapped answer at run time.
import type { SchemaIssue } from "./json-schema.ts";
import type { FieldMap, OutputMap } from "./mapping-schema.ts";
import type { Tool } from "./schema.ts";

type JsonSchema = Record<string, unknown>;

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function allows(types: readonly string[], type: string): boolean {
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

class Checker {
  readonly issues: SchemaIssue[] = [];
  readonly #root: JsonSchema;
  readonly #inputs: JsonSchema | undefined;

  constructor(root: JsonSchema, inputSchema: JsonSchema) {
    this.#root = root;
    this.#inputs = isObject(inputSchema.properties) ? inputSchema.properties : undefined;
  }

  /** The schema with a local $ref followed; undefined when this checker cannot say what it allows. */
  #resolve(schema: unknown): JsonSchema | undefined {
    let current = schema;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 8; hops++) {
      const ref = current.$ref as string;
      if (!ref.startsWith("#/")) return undefined;
      current = ref
        .slice(2)
        .split("/")
        .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), this.#root);
    }
    if (!isObject(current) || "oneOf" in current || "anyOf" in current || "allOf" in current)
      return undefined;
    return current;
  }

  #types(schema: JsonSchema | undefined): string[] | undefined {
    const type = schema?.type;
    if (typeof type === "string") return [type];
    return Array.isArray(type) ? type.filter((t) => typeof t === "string") : undefined;
  }

  #issue(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  object(fields: Record<string, FieldMap>, schema: JsonSchema | undefined, at: string): void {
    const types = this.#types(schema);
    if (types && !types.includes("object")) {
      this.#issue(at, `makes an object, but the outputSchema wants ${types.join(" or ")}`);
      return;
    }
    const properties = isObject(schema?.properties) ? schema.properties : undefined;
    const names = Object.keys(properties ?? {});
    for (const [name, spec] of Object.entries(fields)) {
      const path = `${at}.${name}`;
      if (properties && !Object.hasOwn(properties, name))
        this.#issue(path, `the outputSchema has no field "${name}" (it has ${names.join(", ")})`);
      this.field(spec, this.#resolve(properties?.[name]), path);
    }
    const required = Array.isArray(schema?.required) ? schema.required : [];
    for (const name of required)
      if (typeof name === "string" && !Object.hasOwn(fields, name))
        this.#issue(at, `the outputSchema requires "${name}", which this mapping does not make`);
  }

  field(spec: FieldMap, schema: JsonSchema | undefined, at: string): void {
    if ("const" in spec) {
      this.#value(spec.const, schema, `${at}.const`);
      return;
    }
    if (spec.object) {
      this.object(spec.object, schema, `${at}.object`);
      return;
    }
    if (spec.switch !== undefined) {
      this.#reads(spec.switch, `${at}.switch`);
      for (const [key, chosen] of Object.entries(spec.cases ?? {}))
        this.field(chosen, schema, `${at}.cases.${key}`);
      if (spec.otherwise) this.field(spec.otherwise, schema, `${at}.otherwise`);
      return;
    }
    this.#reads(spec.path as string, `${at}.path`);
    const types = this.#types(schema);
    if (spec.each !== undefined) {
      if (types && !types.includes("array"))
        this.#issue(at, `makes an array, but the outputSchema wants ${types.join(" or ")}`);
      else this.field(spec.each, this.#resolve(schema?.items), `${at}.each`);
    }
    if (spec.lookup !== undefined)
      for (const [key, value] of Object.entries(spec.lookup))
        this.#value(value, schema, `${at}.lookup.${key}`);
    if ("default" in spec) this.#value(spec.default, schema, `${at}.default`);
    const made =
      spec.text !== undefined || spec.as === "string"
        ? "string"
        : spec.as === "boolean"
          ? "boolean"
          : spec.as === "integer" && spec.scale === undefined && spec.convert === undefined
            ? "integer"
            : spec.as !== undefined ||
                spec.convert !== undefined ||
                spec.scale !== undefined ||
                spec.offset !== undefined ||
                spec.round !== undefined
              ? "number"
              : undefined;
    if (made && types && !allows(types, made) && !(made === "number" && types.includes("integer")))
      this.#issue(at, `makes a ${made}, but the outputSchema wants ${types.join(" or ")}`);
  }

  /** A constant (or lookup entry, or default) must itself fit the field's schema. */
  #value(value: unknown, schema: JsonSchema | undefined, at: string): void {
    const types = this.#types(schema);
    if (types && !allows(types, jsonType(value)))
      this.#issue(
        at,
        `${JSON.stringify(value)} is a ${jsonType(value)}, but the outputSchema wants ${types.join(" or ")}`,
      );
    const choices = schema?.enum;
    if (Array.isArray(choices) && !choices.some((c) => JSON.stringify(c) === JSON.stringify(value)))
      this.#issue(at, `${JSON.stringify(value)} is not one of the outputSchema's ${JSON.stringify(choices)}`);
  }

  #reads(path: string, at: string): void {
    const [head, name] = path.split(".");
    if (head !== "$args" || this.#inputs === undefined) return;
    if (name === undefined || !Object.hasOwn(this.#inputs, name))
      this.#issue(at, `reads the argument "${name ?? ""}", which the inputSchema does not declare`);
  }
}

/** Problems with the tool's mappings, at paths inside the tool definition ("policy.fallback.0.map.x"). */
export function mappingIssues(tool: Tool): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])];
  for (const [i, binding] of bindings.entries()) {
    const map: OutputMap | undefined = binding?.map;
    if (map === undefined) continue;
    const at = i === 0 ? "binding.map" : `policy.fallback.${i - 1}.map`;
    if (!tool.outputSchema) {
      issues.push({
        path: at,
        message: "a mapping makes the tool's canonical output: the tool needs an outputSchema",
      });
      continue;
    }
    const checker = new Checker(tool.outputSchema, tool.inputSchema);
    checker.object(map, tool.outputSchema, at);
    issues.push(...checker.issues);
  }
  return issues;
}
