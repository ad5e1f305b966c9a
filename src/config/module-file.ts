// A module started by path (a worker thread, a child process) rather than imported: a checkout runs the
// .ts sources, the installed package its compiled .js in dist/, and tsc rewrites only import specifiers.
export function moduleFile(relative: string, base: string): URL {
  const path = base.endsWith(".ts") ? relative : relative.replace(/\.ts$/, ".js");
  return new URL(path, base);
}
