/** One thing wrong with a catalog, located precisely enough to fix without searching. */
export interface CatalogProblem {
  /** Errors make a catalog unusable; warnings (e.g. a name outside MCP's recommended pattern) do not. */
  severity: "error" | "warning";
  file: string;
  /** The tool's name, or `#<index>` when the entry has no usable name. */
  tool?: string;
  /** Dot path of the field inside the tool definition ("" for the whole entry). */
  path: string;
  message: string;
}

export function formatProblem(problem: CatalogProblem): string {
  const where = [problem.file, problem.tool ? `tool ${problem.tool}` : undefined, problem.path || undefined]
    .filter(Boolean)
    .join(": ");
  return `${problem.severity}: ${where}: ${problem.message}`;
}

/** Thrown when a catalog cannot be used; carries every problem found, not just the first. */
export class CatalogError extends Error {
  readonly problems: CatalogProblem[];
  constructor(problems: CatalogProblem[]) {
    const count = problems.length;
    super(
      `catalog has ${count} problem${count === 1 ? "" : "s"}:\n${problems.map((p) => `  ${formatProblem(p)}`).join("\n")}`,
    );
    this.name = "CatalogError";
    this.problems = problems;
  }
}
