// Reads a catalog (one JSON/YAML file, or a folder of them) and reports every problem at once.
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import type { z } from "zod";
import { reservedNameIssue } from "./admission.ts";
import { bindingIssues } from "./binding-check.ts";
import { checkJsonSchema } from "./json-schema.ts";
import { CatalogError, type CatalogProblem } from "./problem.ts";
import { unsafePatternIssues } from "./regex.ts";
import { TOOL_NAME_ADVICE, TOOL_NAME_PATTERN, type Tool, toolSchema } from "./schema.ts";
import { parseYaml, YamlError } from "./yaml.ts";

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
    if (error instanceof YamlError)
      return { problem: { severity: "error", file, path: "", message: error.message } };
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

/** Whether `path` (real, absolute) lies inside `folder` (real, absolute). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * A sandbox tool's file, made absolute and real. It must lie inside the catalog folder after symlinks are
 * resolved, so a catalog cannot run (or echo in an error) a file from elsewhere on the machine.
 */
async function sandboxFile(
  folder: string,
  file: string,
  declared: string,
): Promise<string | { error: string }> {
  let real: string;
  try {
    real = await realpath(resolve(dirname(file), declared));
  } catch {
    return { error: `sandbox file not found: ${declared}` };
  }
  return isInside(folder, real)
    ? real
    : { error: `sandbox file ${declared} is outside the catalog folder; keep tool code inside it` };
}

/** Checks that need no valid tool: run on every entry, so one mistake never hides another. */
function checkShape(file: string, name: string, entry: Record<string, unknown>): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  if (typeof entry.name === "string" && entry.name) {
    const reserved = reservedNameIssue(entry.name);
    if (reserved) problems.push({ severity: "error", file, tool: name, ...reserved });
    else if (!TOOL_NAME_PATTERN.test(entry.name))
      problems.push({ severity: "warning", file, tool: name, path: "name", message: TOOL_NAME_ADVICE });
  }
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const schema = entry[field];
    if (!schema || typeof schema !== "object" || Array.isArray(schema)) continue;
    for (const issue of checkJsonSchema(schema)) {
      problems.push({
        severity: "error",
        file,
        tool: name,
        path: issue.path ? `${field}.${issue.path}` : field,
        message: `invalid JSON Schema: ${issue.message}`,
      });
    }
    // RE2 runs most of these in linear time; a lookaround falls back to a backtracking engine (a known limit).
    for (const issue of unsafePatternIssues(schema, field))
      problems.push({ severity: "warning", file, tool: name, ...issue });
  }
  return problems;
}

/**
 * Checks of a tool that passed its schema: its mappings fit its outputSchema, and the sandbox files it names
 * exist inside the catalog folder.
 */
async function checkTool(folder: string, file: string, tool: Tool): Promise<CatalogProblem[]> {
  const problems: CatalogProblem[] = [];
  for (const issue of bindingIssues(tool))
    problems.push({ severity: "error", file, tool: tool.name, path: issue.path, message: issue.message });
  const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])];
  for (const [i, binding] of bindings.entries()) {
    if (binding?.type !== "sandbox" || binding.file === undefined) continue;
    const path = i === 0 ? "binding.file" : `policy.fallback.${i - 1}.file`;
    const real = await sandboxFile(folder, file, binding.file);
    if (typeof real === "string") binding.file = real;
    else problems.push({ severity: "error", file, tool: tool.name, path, message: real.error });
  }
  return problems;
}

function parseEntry(
  file: string,
  entry: unknown,
  index: number,
): { tool?: Tool; label: string; problems: CatalogProblem[] } {
  const rawName = (entry as { name?: unknown } | null)?.name;
  const label = typeof rawName === "string" && rawName ? rawName : `#${index}`;
  const shape =
    entry && typeof entry === "object" && !Array.isArray(entry)
      ? checkShape(file, label, entry as Record<string, unknown>)
      : [];
  const result = toolSchema.safeParse(entry);
  if (result.success) return { tool: result.data, label, problems: shape };
  const issues = (result.error as z.ZodError).issues.map((issue) => ({
    severity: "error" as const,
    file,
    tool: label,
    path: zodPath(issue.path),
    message: issue.message,
  }));
  return { label, problems: [...issues, ...shape] };
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
  // Sandbox files must stay inside this folder (the catalog file's own folder for a single file).
  const folder = await realpath((await stat(root)).isDirectory() ? root : dirname(root));
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
      const { tool, label, problems } = parseEntry(file, entry, index);
      report.problems.push(...problems);
      // Every entry with a name takes part in the duplicate check, valid or not.
      const earlier = label.startsWith("#") ? undefined : firstSeen.get(label);
      if (earlier)
        report.problems.push({
          severity: "error",
          file,
          tool: label,
          path: "name",
          message: `duplicate tool name (first defined in ${earlier})`,
        });
      else if (!label.startsWith("#")) firstSeen.set(label, file);
      if (!tool || earlier || problems.some(isError)) continue;
      const toolProblems = await checkTool(folder, file, tool);
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
