// Flag parsing for every subcommand: node:util parseArgs reads the flags, one zod schema per command
// validates and types them, and every mistake becomes a UsageError naming the flag.
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import type { z } from "zod";
import { UsageError } from "./errors.ts";

export interface ParsedCommand<T> {
  options: T;
  positionals: string[];
  /** Everything after a literal `--`. */
  rest: string[];
}

export function parseCommand<S extends z.ZodType>(
  argv: string[],
  flags: ParseArgsOptionsConfig,
  schema: S,
): ParsedCommand<z.infer<S>> {
  const dashDash = argv.indexOf("--");
  const own = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const rest = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: own,
      options: flags,
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0];
    if (key === undefined) throw new UsageError(issue?.message ?? "invalid options");
    const flag = `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const given = values[String(key)];
    // zod's own words for a coerced number ("expected number, received NaN") say nothing about the flag's
    // form: name what was given and what is expected instead.
    const message =
      issue?.code === "invalid_type" && issue.expected === "number"
        ? `expected a number, e.g. ${flag} 5, but got ${JSON.stringify(given)}`
        : given === undefined
          ? issue?.message
          : `${issue?.message} (got ${JSON.stringify(given)})`;
    throw new UsageError(`${flag}: ${message}`);
  }
  return { options: parsed.data, positionals, rest };
}
