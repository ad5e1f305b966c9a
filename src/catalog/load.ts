// Reads a catalog (one JSON/YAML file, or a folder of them) and reports every problem at once.
import { access, readdir, readFile, stat } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import type { z } from "zod";
import { checkJsonSchema } from "./json-schema.ts";
import { CatalogError, type CatalogProblem } from "./problem.ts";
import { TOOL_NAME_ADVICE, TOOL_NAME_PATTERN, type Tool, toolSchema } from "./schema.ts";

const CATALOG_EXTENSIONS = new Set([".json", ".yaml", ".yml"]);

export const isError = (problem: CatalogProblem) => problem.severity === "error";

export interface CatalogReport {
  tools: Tool[];
  files: string[];
  problems: CatalogProblem[];
}

async function listCatalogFiles(root: string): Promise<string[]> {
  const info = await stat(root);
  if (!info.isDirectory()) return [root];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && CATALOG_EXTENSIONS.has(extname(e.name).toLowerCase()))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function parseDocument(file: string, text: string): { value?: unknown; problem?: CatalogProblem } {
  try {
    if (extname(file).toLowerCase() === ".json") return { value: JSON.parse(text) };
    return { value: parseYaml(text) };
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      return {
        problem: {
          severity: "error",
          file,
          path: "",
          message: `YAML syntax error${at ? ` at line ${at.line}, column ${at.col}` : ""}: ${error.code}`,
        },
      };
    }
    return {
      problem: { severity: "error", file, path: "", message: `invalid JSON: ${(error as Error).message}` },
    };
  }
}

function zodPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

function entriesOf(file: string, document: unknown): { entries?: unknown[]; problem?: CatalogProblem } {
  if (Array.isArray(document)) return { entries: document };
  if (document && typeof document === "object" && Array.isArray((document as { tools?: unknown }).tools)) {
    return { entries: (document as { tools: unknown[] }).tools };
  }
  return {
    problem: {
      severity: "error",
      file,
      path: "",
      message: 'must hold an array of tools or an object { "tools": [...] }',
    },
  };
}

async function checkTool(file: string, tool: Tool): Promise<CatalogProblem[]> {
  const problems: CatalogProblem[] = [];
  if (!TOOL_NAME_PATTERN.test(tool.name)) {
    problems.push({ severity: "warning", file, tool: tool.name, path: "name", message: TOOL_NAME_ADVICE });
  }
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[field];
    if (!schema) continue;
    for (const issue of checkJsonSchema(schema)) {
      problems.push({
        severity: "error",
        file,
        tool: tool.name,
        path: issue.path ? `${field}.${issue.path}` : field,
        message: `invalid JSON Schema: ${issue.message}`,
      });
    }
  }
  const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])];
  for (const [i, binding] of bindings.entries()) {
    if (binding?.type !== "sandbox" || binding.file === undefined) continue;
    const absolute = resolve(dirname(file), binding.file);
    const path = i === 0 ? "binding.file" : `policy.fallback.${i - 1}.file`;
    try {
      await access(absolute);
      binding.file = absolute;
    } catch {
      problems.push({
        severity: "error",
        file,
        tool: tool.name,
        path,
        message: `sandbox file not found: ${absolute}`,
      });
    }
  }
  return problems;
}

function parseEntry(
  file: string,
  entry: unknown,
  index: number,
): { tool?: Tool; problems: CatalogProblem[] } {
  const result = toolSchema.safeParse(entry);
  if (result.success) return { tool: result.data, problems: [] };
  const rawName = (entry as { name?: unknown } | null)?.name;
  const label = typeof rawName === "string" && rawName ? rawName : `#${index}`;
  return {
    problems: (result.error as z.ZodError).issues.map((issue) => ({
      severity: "error" as const,
      file,
      tool: label,
      path: zodPath(issue.path),
      message: issue.message,
    })),
  };
}

/** Reads and checks a catalog; never throws for content problems, only reports them. */
export async function readCatalog(path: string): Promise<CatalogReport> {
  const root = resolve(path);
  const report: CatalogReport = { tools: [], files: [], problems: [] };
  try {
    report.files = await listCatalogFiles(root);
  } catch {
    report.problems.push({ severity: "error", file: root, path: "", message: "no such file or folder" });
    return report;
  }
  const firstSeen = new Map<string, string>();
  for (const file of report.files) {
    const { value, problem } = parseDocument(file, await readFile(file, "utf8"));
    if (problem) {
      report.problems.push(problem);
      continue;
    }
    const { entries, problem: shapeProblem } = entriesOf(file, value);
    if (shapeProblem || !entries) {
      if (shapeProblem) report.problems.push(shapeProblem);
      continue;
    }
    for (const [index, entry] of entries.entries()) {
      const { tool, problems } = parseEntry(file, entry, index);
      report.problems.push(...problems);
      if (!tool) continue;
      const earlier = firstSeen.get(tool.name);
      if (earlier) {
        report.problems.push({
          severity: "error",
          file,
          tool: tool.name,
          path: "name",
          message: `duplicate tool name (first defined in ${earlier})`,
        });
        continue;
      }
      firstSeen.set(tool.name, file);
      const toolProblems = await checkTool(file, tool);
      report.problems.push(...toolProblems);
      if (!toolProblems.some(isError)) report.tools.push(tool);
    }
  }
  if (!report.problems.some(isError) && report.tools.length === 0) {
    report.problems.push({ severity: "error", file: root, path: "", message: "the catalog has no tools" });
  }
  return report;
}

/** Loads a catalog for use; throws a CatalogError listing every problem when there is any. */
export async function loadCatalog(path: string): Promise<Tool[]> {
  const report = await readCatalog(path);
  const errors = report.problems.filter(isError);
  if (errors.length > 0) throw new CatalogError(errors);
  return report.tools;
}
