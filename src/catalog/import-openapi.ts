// Turns each operation of an OpenAPI 3 document into a catalog tool with an `http` binding. swagger-parser
// reads JSON or YAML, validates the document and resolves its $refs; openapi-schema-to-json-schema turns
// OpenAPI 3.0 schema objects (nullable, read-only fields, int32 formats) into JSON Schema.
import SwaggerParser from "@apidevtools/swagger-parser";
import { fromParameter, fromSchema } from "@openapi-contrib/openapi-schema-to-json-schema";
import type { OpenAPIV3 } from "openapi-types";
import { importedName } from "./admission.ts";
import { parsers, sourcesOf } from "./openapi-sources.ts";
import { withoutUnsafePatterns } from "./regex.ts";
import { type HttpBinding, MAX_DESCRIPTION_CHARS, type Tool } from "./schema.ts";

export interface OpenApiImport {
  tools: Tool[];
  /** Parts of the document that could not be carried over (each names the operation). */
  warnings: string[];
}

type JsonSchema = Record<string, unknown>;
type Method = HttpBinding["method"];

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const SUPPORTED = new Set<string>(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/** OpenAPI 3.0 writes exclusive bounds as booleans beside minimum/maximum; JSON Schema 2020-12 as numbers. */
function exclusiveBoundsToNumbers(schema: JsonSchema): JsonSchema {
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof schema[exclusive] !== "boolean") continue;
    if (schema[exclusive] === true && typeof schema[bound] === "number") {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else delete schema[exclusive];
  }
  return schema;
}

function convertOptions(forRequest: boolean) {
  return {
    cloneSchema: true,
    strictMode: false,
    removeReadOnly: forRequest,
    afterTransform: (schema: unknown) => exclusiveBoundsToNumbers(schema as JsonSchema),
  };
}

/** The converter labels its output draft-04; the tool schema inherits the catalog's default dialect. */
function withoutDialect(schema: object): JsonSchema {
  const { $schema: _dialect, ...rest } = schema as JsonSchema;
  return rest;
}

/**
 * Converts the schemas of one tool schema (input or output). Recursive component schemas stay `$ref`s after
 * dereferencing (swagger-parser's circular "ignore"): they are copied into `defs`, which goes into the tool
 * schema's root `$defs`, so the recursion survives without the rest of the document.
 */
class SchemaConverter {
  readonly defs: Record<string, JsonSchema> = {};
  readonly #components: Record<string, unknown>;
  readonly #forRequest: boolean;

  constructor(components: Record<string, unknown>, forRequest: boolean) {
    this.#components = components;
    this.#forRequest = forRequest;
  }

  schema(schema: object): JsonSchema {
    return this.#localise(withoutDialect(fromSchema(schema, convertOptions(this.#forRequest))));
  }

  parameter(parameter: OpenAPIV3.ParameterObject): JsonSchema {
    return this.#localise(
      withoutDialect(
        fromParameter(parameter as Parameters<typeof fromParameter>[0], convertOptions(this.#forRequest)),
      ),
    );
  }

  /** The finished tool schema, with `$defs` when a recursive schema needed them. */
  root(schema: JsonSchema): Tool["inputSchema"] {
    const withDefs = Object.keys(this.defs).length > 0 ? { ...schema, $defs: this.defs } : schema;
    return withDefs as Tool["inputSchema"];
  }

  #localise<T>(node: T): T {
    if (!node || typeof node !== "object") return node;
    if (Array.isArray(node)) {
      for (const item of node) this.#localise(item);
      return node;
    }
    const record = node as JsonSchema;
    const ref = typeof record.$ref === "string" ? COMPONENT_REF.exec(record.$ref)?.[1] : undefined;
    if (ref !== undefined) {
      record.$ref = `#/$defs/${ref}`;
      const component = this.#components[ref];
      if (!(ref in this.defs) && component) {
        this.defs[ref] = {};
        this.defs[ref] = withoutDialect(fromSchema(component as object, convertOptions(this.#forRequest)));
        this.#localise(this.defs[ref]);
      }
    }
    for (const value of Object.values(record)) this.#localise(value);
    return node;
  }
}

function toolName(operation: OpenAPIV3.OperationObject, method: string, path: string): string {
  const raw =
    operation.operationId ?? [method, ...path.split("/").filter(Boolean)].join("_").replace(/[{}]/g, "");
  return importedName(
    raw
      .replace(/[^A-Za-z0-9_.-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 64),
  );
}

function describe(operation: OpenAPIV3.OperationObject, method: Method, path: string): string {
  const parts = [operation.summary, operation.description].map((s) => s?.trim()).filter(Boolean);
  const text = parts.length > 0 ? [...new Set(parts)].join("\n\n") : `${method} ${path}`;
  return text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : text;
}

function annotationsFor(method: Method): Tool["annotations"] {
  if (method === "GET" || method === "HEAD") return { readOnlyHint: true, openWorldHint: true };
  return {
    readOnlyHint: false,
    destructiveHint: method === "DELETE",
    idempotentHint: method === "PUT" || method === "DELETE",
    openWorldHint: true,
  };
}

function baseUrl(api: OpenAPIV3.Document, envPrefix: string, warnings: string[]): string {
  const server = api.servers?.[0];
  const url = (server?.url ?? "")
    .replace(/\{([^}]+)\}/g, (_, name: string) => server?.variables?.[name]?.default ?? "")
    .replace(/\/+$/, "");
  if (/^https?:\/\//.test(url)) return url;
  // Without an absolute server URL the origin comes from the environment at call time, like credentials.
  const variable = `${envPrefix}_BASE_URL`;
  warnings.push(
    `the document gives no absolute server URL${url ? ` ("${url}")` : ""}: the bindings read the API's origin from the environment variable ${variable}`,
  );
  return `{env.${variable}}${url}`;
}

function jsonMediaType(
  content: Record<string, OpenAPIV3.MediaTypeObject>,
): OpenAPIV3.MediaTypeObject | undefined {
  const type = Object.keys(content).find((t) => /^application\/([\w.-]+\+)?json\b/.test(t));
  return type === undefined ? undefined : content[type];
}

function outputSchemaOf(operation: OpenAPIV3.OperationObject, components: Record<string, unknown>) {
  const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2/.test(status))?.[1];
  const media = jsonMediaType((success as OpenAPIV3.ResponseObject | undefined)?.content ?? {});
  if (!media?.schema) return undefined;
  const converter = new SchemaConverter(components, false);
  const schema = converter.schema(media.schema);
  // MCP output schemas describe structured content, which is always an object.
  return schema.type === "object" ? converter.root(schema) : undefined;
}

/** What every operation of one document shares. */
interface DocumentContext {
  api: OpenAPIV3.Document;
  base: string;
  components: Record<string, unknown>;
  /** Prefix of the environment variables that hold the API's credentials, from its title. */
  envPrefix: string;
  /** Every environment variable a binding reads, to tell the user what to set. */
  secrets: Set<string>;
  warnings: string[];
}

/**
 * The operation's credentials become `{env.NAME}` placeholders in its binding: the importer never sees a
 * secret, and the http binding reads it from the environment at call time. Of alternative requirements
 * the first is used; an empty one (`security: []`, `{}`) means no credentials.
 */
function applySecurity(
  operation: OpenAPIV3.OperationObject,
  doc: DocumentContext,
  name: string,
  query: Record<string, string>,
  headers: Record<string, string>,
) {
  const requirement = (operation.security ?? doc.api.security ?? [])[0] ?? {};
  for (const schemeName of Object.keys(requirement)) {
    const scheme = doc.api.components?.securitySchemes?.[schemeName] as
      | OpenAPIV3.SecuritySchemeObject
      | undefined;
    if (!scheme) continue;
    const env = `${doc.envPrefix}_${schemeName}`.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
    const placeholder = `{env.${env}}`;
    if (scheme.type === "apiKey" && scheme.in === "cookie") {
      doc.warnings.push(
        `${name}: cookie API key "${schemeName}" is not supported by http bindings; left out`,
      );
      continue;
    }
    if (scheme.type === "apiKey" && scheme.in === "query") query[scheme.name] ??= placeholder;
    else if (scheme.type === "apiKey") headers[scheme.name] ??= placeholder;
    else if (scheme.type === "http" && scheme.scheme.toLowerCase() === "basic")
      headers.Authorization ??= `Basic ${placeholder}`;
    else headers.Authorization ??= `Bearer ${placeholder}`;
    doc.secrets.add(env);
  }
}

function operationTool(
  operation: OpenAPIV3.OperationObject,
  pathParameters: OpenAPIV3.ParameterObject[],
  method: Method,
  path: string,
  doc: DocumentContext,
): Tool | undefined {
  const { base, components, warnings } = doc;
  const name = toolName(operation, method.toLowerCase(), path);
  const requestBody = operation.requestBody as OpenAPIV3.RequestBodyObject | undefined;
  const media = requestBody && jsonMediaType(requestBody.content);
  if (requestBody && !media) {
    // A tool that cannot send its body (a form, an upload) would be routed to and then fail or do the
    // wrong thing, so it is not imported at all.
    const types = Object.keys(requestBody.content).join(", ");
    warnings.push(
      `${name}: left out: its request body (${types}) is not JSON, and http bindings send only JSON bodies`,
    );
    return undefined;
  }
  // Operation parameters override path-level ones with the same name and location.
  const parameters = new Map<string, OpenAPIV3.ParameterObject>();
  for (const p of [...pathParameters, ...((operation.parameters ?? []) as OpenAPIV3.ParameterObject[])]) {
    parameters.set(`${p.in}:${p.name}`, p);
  }
  const converter = new SchemaConverter(components, true);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let url = `${base}${path}`;
  for (const parameter of parameters.values()) {
    if (parameter.in === "cookie") {
      warnings.push(
        `${name}: cookie parameter "${parameter.name}" is not supported by http bindings; left out`,
      );
      continue;
    }
    const argument = parameter.name in properties ? `${parameter.in}_${parameter.name}` : parameter.name;
    properties[argument] = converter.parameter(parameter);
    if (parameter.required || parameter.in === "path") required.push(argument);
    if (parameter.in === "path") url = url.replaceAll(`{${parameter.name}}`, `{${argument}}`);
    if (parameter.in === "query") query[parameter.name] = `{${argument}}`;
    if (parameter.in === "header") headers[parameter.name] = `{${argument}}`;
  }
  applySecurity(operation, doc, name, query, headers);
  const binding: HttpBinding = { type: "http", method, url };
  if (Object.keys(query).length > 0) binding.query = query;
  if (Object.keys(headers).length > 0) binding.headers = headers;

  if (requestBody && media) {
    const argument = "body" in properties ? "requestBody" : "body";
    properties[argument] = media.schema ? converter.schema(media.schema) : {};
    if (requestBody.description) properties[argument].description ??= requestBody.description;
    if (requestBody.required) required.push(argument);
    binding.body = argument;
  }

  const tool: Tool = {
    name,
    description: describe(operation, method, path),
    inputSchema: converter.root({
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    }),
    annotations: annotationsFor(method),
    binding,
  };
  if (operation.summary) tool.title = operation.summary.trim();
  if (operation.tags?.length) tool.tags = operation.tags;
  const outputSchema = outputSchemaOf(operation, components);
  if (outputSchema) tool.outputSchema = outputSchema;
  return tool;
}

/** Reads an OpenAPI 3 document (file path or URL, JSON or YAML) and returns one tool per operation. */
export async function importOpenApi(spec: string): Promise<OpenApiImport> {
  let document: { openapi?: string };
  try {
    document = (await SwaggerParser.validate(spec, {
      dereference: { circular: "ignore" },
      resolve: await sourcesOf(spec),
      parse: parsers,
    })) as typeof document;
  } catch (error) {
    throw new Error(`cannot import ${spec}: ${(error as Error).message}`);
  }
  if (typeof document.openapi !== "string" || !document.openapi.startsWith("3.")) {
    throw new Error(`${spec}: not an OpenAPI 3 document (Swagger 2.0 is not supported; convert it first)`);
  }
  const api = document as OpenAPIV3.Document;
  const warnings: string[] = [];
  const envPrefix =
    api.info.title
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "") || "API";
  const doc: DocumentContext = {
    api,
    base: baseUrl(api, envPrefix, warnings),
    components: (api.components?.schemas ?? {}) as Record<string, unknown>,
    envPrefix,
    secrets: new Set(),
    warnings,
  };
  const tools: Tool[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(api.paths ?? {})) {
    if (!item) continue;
    for (const lower of METHODS) {
      const operation = item[lower];
      if (!operation) continue;
      const method = lower.toUpperCase();
      if (!SUPPORTED.has(method)) {
        warnings.push(`${method} ${path}: http bindings do not support ${method}; left out`);
        continue;
      }
      const tool = operationTool(
        operation,
        (item.parameters ?? []) as OpenAPIV3.ParameterObject[],
        method as Method,
        path,
        doc,
      );
      if (!tool) continue;
      const wanted = tool.name;
      for (let n = 2; names.has(tool.name); n++) tool.name = `${wanted.slice(0, 60)}_${n}`;
      names.add(tool.name);
      tools.push(tool);
    }
  }
  if (tools.length === 0) warnings.push(`${spec}: the document has no operations`);
  if (doc.secrets.size > 0) {
    warnings.push(`the bindings read credentials from the environment: set ${[...doc.secrets].join(", ")}`);
  }
  return { tools: withoutUnsafePatterns(tools, warnings), warnings };
}
