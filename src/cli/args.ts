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
    const flag =
      issue?.path[0] === undefined
        ? ""
        : `--${String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: `;
    throw new UsageError(`${flag}${issue?.message ?? "invalid options"}`);
  }
  return { options: parsed.data, positionals, rest };
}
