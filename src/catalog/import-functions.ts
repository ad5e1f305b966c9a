// Turns function definitions written for other ecosystems into catalog tools: OpenAI Chat Completions
// (`{type: "function", function: {...}}`) and Responses (`{type: "function", name, parameters}`) tools,
// Anthropic tools (`input_schema`), and the plain `{name, description, parameters}` form with the Gorilla/BFCL
// Python type names. A file holds a list of them, an object with `tools` or `functions`, or JSON lines (one
// definition, or one BFCL question with its `function` list, per line).
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { importedName } from "./admission.ts";
import { functionParametersToJsonSchema } from "./function-schema.ts";
import { checkJsonSchema } from "./json-schema.ts";
import { withoutUnsafePatterns } from "./regex.ts";
import { type Binding, MAX_DESCRIPTION_CHARS, type Tool } from "./schema.ts";

export interface FunctionsImport {
  tools: Tool[];
  /** Each change a definition needed to become a tool, naming the definition and the place. */
  warnings: string[];
}

/** The binding each imported tool gets, from the definition's own name; none: route-only tools. */
export type BindingFor = (functionName: string) => Binding | undefined;

const nameSchema = z.string().trim().min(1, "must not be empty").max(128, "must be at most 128 characters");
const parametersSchema = z
  .looseObject({})
  .meta({ description: "JSON Schema, or BFCL's Python-typed variant" });

/** The legacy OpenAI `functions` entry, and the Gorilla/BFCL definition. */
const plainFunctionSchema = z.looseObject({
  name: nameSchema,
  description: z.string().optional(),
  parameters: parametersSchema.optional(),
});
const chatCompletionsToolSchema = z.looseObject({
  type: z.literal("function"),
  function: plainFunctionSchema,
});
const responsesToolSchema = z.looseObject({
  type: z.literal("function"),
  name: nameSchema,
  description: z.string().optional(),
  parameters: parametersSchema.optional(),
});
const anthropicToolSchema = z.looseObject({
  name: nameSchema,
  description: z.string().optional(),
  input_schema: parametersSchema,
});

interface Definition {
  name: string;
  description: string | undefined;
  parameters: unknown;
  /** Where the parameters are, for warnings. */
  field: string;
}

/** One entry in any of the four shapes, or why it is none of them. */
function readDefinition(entry: unknown): Definition | string {
  const chat = chatCompletionsToolSchema.safeParse(entry);
  if (chat.success) {
    const { name, description, parameters } = chat.data.function;
    return { name, description, parameters, field: "function.parameters" };
  }
  const anthropic = anthropicToolSchema.safeParse(entry);
  if (anthropic.success) {
    const { name, description, input_schema } = anthropic.data;
    return { name, description, parameters: input_schema, field: "input_schema" };
  }
  const responses = responsesToolSchema.safeParse(entry);
  if (responses.success) {
    const { name, description, parameters } = responses.data;
    return { name, description, parameters, field: "parameters" };
  }
  const plain = plainFunctionSchema.safeParse(entry);
  if (plain.success && (entry as { type?: unknown }).type === undefined) {
    const { name, description, parameters } = plain.data;
    return { name, description, parameters, field: "parameters" };
  }
  const type = (entry as { type?: unknown } | null)?.type;
  if (typeof type === "string" && type !== "function")
    return `a built-in "${type}" tool of its provider, not a function definition`;
  const issue = (plain.success ? chat : plain).error?.issues[0];
  return `not a function definition (OpenAI, Anthropic or BFCL): ${issue ? `${issue.path.join(".") || "(entry)"} ${issue.message}` : "unknown shape"}`;
}

const listSchema = z.array(z.unknown());
const LIST_KEYS = ["tools", "functions", "function"] as const;

/** The document's list of definitions and the key it is under: a list, or an object holding one. */
function listOf(json: unknown): { list: unknown[]; key: string } | undefined {
  const list = listSchema.safeParse(json);
  if (list.success) return { list: list.data, key: "" };
  for (const key of LIST_KEYS) {
    // `function` holds one BFCL question's own definitions.
    const held = z.looseObject({ [key]: listSchema }).safeParse(json);
    if (held.success) return { list: held.data[key] as unknown[], key };
  }
  return undefined;
}

/** The entries of a JSON document or of JSON lines, each with its place for messages. */
export function functionEntries(text: string, file: string): { entry: unknown; where: string }[] {
  let documents: { json: unknown; where: string; line: boolean }[];
  try {
    documents = [{ json: JSON.parse(text), where: file, line: false }];
  } catch (whole) {
    const lines = text.split("\n");
    if (lines.filter((l) => l.trim() !== "").length < 2)
      throw new Error(`${file}: not JSON: ${(whole as Error).message}`);
    documents = lines.flatMap((line, i) => {
      if (line.trim() === "") return [];
      try {
        return [{ json: JSON.parse(line) as unknown, where: `${file}:${i + 1}`, line: true }];
      } catch (error) {
        throw new Error(`${file}:${i + 1}: not JSON: ${(error as Error).message}`);
      }
    });
  }
  return documents.flatMap(({ json, where, line }) => {
    const found = listOf(json);
    // A line of JSON lines may be one definition on its own.
    if (found === undefined && line) return [{ entry: json, where }];
    if (found === undefined)
      throw new Error(
        `${where}: expected a list of function definitions, or an object with "tools", "functions" or "function"`,
      );
    return found.list.map((entry, i) => ({ entry, where: `${where}: ${found.key}[${i}]` }));
  });
}

/** Turns definitions into tools; later definitions of a name already taken are left out with a warning. */
export function toolsFromFunctions(
  entries: { entry: unknown; where: string }[],
  bindingFor: BindingFor = () => undefined,
): FunctionsImport {
  const warnings: string[] = [];
  const tools: Tool[] = [];
  const taken = new Set<string>();
  for (const { entry, where } of entries) {
    const definition = readDefinition(entry);
    if (typeof definition === "string") {
      warnings.push(`${where}: ${definition}; left out`);
      continue;
    }
    const name = importedName(definition.name);
    const label = JSON.stringify(definition.name);
    if (name !== definition.name)
      warnings.push(
        `${where} ${label}: renamed ${name} to fit the tool-name rule (calls still use its own name)`,
      );
    if (taken.has(name)) {
      warnings.push(`${where} ${label}: a tool named ${name} was defined earlier; left out`);
      continue;
    }
    let description = definition.description?.trim() ?? "";
    if (description === "") {
      description = definition.name;
      warnings.push(`${where} ${label}: no description; used its name (routing needs a real one)`);
    } else if (description.length > MAX_DESCRIPTION_CHARS) {
      description = description.slice(0, MAX_DESCRIPTION_CHARS);
      warnings.push(`${where} ${label}: the description was cut to ${MAX_DESCRIPTION_CHARS} characters`);
    }
    const { schema, changes } = functionParametersToJsonSchema(definition.parameters, definition.field);
    for (const change of changes) warnings.push(`${where} ${label}: ${change}`);
    if (schema.type !== "object") {
      warnings.push(`${where} ${label}: ${definition.field} is not an object schema; left out`);
      continue;
    }
    const problems = checkJsonSchema(schema);
    if (problems.length > 0) {
      const first = problems[0];
      warnings.push(
        `${where} ${label}: ${definition.field}${first?.path ? `.${first.path}` : ""} is not valid JSON Schema: ${first?.message}; left out`,
      );
      continue;
    }
    const tool: Tool = { name, description, inputSchema: schema as Tool["inputSchema"] };
    const binding = bindingFor(definition.name);
    if (binding) tool.binding = binding;
    taken.add(name);
    tools.push(tool);
  }
  return { tools: withoutUnsafePatterns(tools, warnings), warnings };
}

/**
 * Reads a file of function definitions. With `url`, each tool is bound to `POST <url>/<its name>` with
 * every argument as the JSON body; without, the tools can be routed to but not run.
 */
export async function importFunctions(
  file: string,
  options: { url?: string } = {},
): Promise<FunctionsImport> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const base = options.url?.replace(/\/+$/, "");
  if (base !== undefined && !/^https?:\/\/[^/]/.test(base))
    throw new Error(`--url "${options.url}" is not an http(s) URL`);
  const imported = toolsFromFunctions(
    functionEntries(text, file),
    base === undefined
      ? undefined
      : (name) => ({
          type: "http",
          method: "POST",
          url: `${base}/${encodeURIComponent(name)}`,
          bodyFrom: "arguments",
        }),
  );
  if (imported.tools.length === 0) imported.warnings.push(`${file}: no function definitions to import`);
  else if (base === undefined)
    imported.warnings.push(
      `${file}: no --url given, so the tools have no binding: they can be routed to, not run`,
    );
  return imported;
}
