// Turns submitted code into a registered tool, stage by stage: definition (zod and JSON Schema), static
// policy (acorn), compile (in a warm isolate), test runs, output checks, registration. Every failure comes
// back as data an LLM can act on: the stage, and each problem with its line/column or field path.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import {
  admissionIssues,
  checkJsonSchema,
  type RegistryEntry,
  type SchemaIssue,
  type Tool,
  toolSchema,
  validateAgainstSchema,
} from "../catalog/index.ts";
import { checkCode } from "./check.ts";
import { type ConsoleLine, SandboxError } from "./errors.ts";
import type { Sandbox } from "./sandbox.ts";

export type SynthesisStage = "definition" | "static" | "compile" | "runtime" | "output";

export interface SynthesisIssue {
  message: string;
  line?: number;
  column?: number;
  path?: string;
}

export interface SynthesisFailure {
  ok: false;
  stage: SynthesisStage;
  /** What went wrong within the stage: "invalid", "policy", "compile", a SandboxError kind, "schema", "mismatch". */
  kind: string;
  errors: SynthesisIssue[];
}

export interface TestRun {
  arguments: Record<string, unknown>;
  output: unknown;
  console: ConsoleLine[];
}

export interface SynthesisSuccess {
  ok: true;
  /** The tool as registered (with its version) or, without a registry, as it would be registered. */
  tool: Tool;
  tests: TestRun[];
}

export type SynthesisOutcome = SynthesisSuccess | SynthesisFailure;

/** What synthesis needs of the catalog registry (ToolRegistry satisfies it). */
export interface SynthesisRegistry {
  put(tool: Tool, origin: "synthesized"): Promise<RegistryEntry>;
  /** What keeps a tool from being stored (name rule, commands, secrets, unsafe patterns). */
  admit?(tool: Tool): SchemaIssue[];
}

export interface SynthesisDeps {
  sandbox: Sandbox;
  /** Registers the tool when given; without it the caller registers `outcome.tool` itself. */
  registry?: SynthesisRegistry;
  /** Deadline of each test run; the tool's policy.timeoutMs when it has one. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const argumentsSchema = z.record(z.string(), z.unknown());

export const synthesisRequestSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/, "must be a JavaScript identifier of 1-64 characters"),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  code: z.string().min(1, "must not be empty").max(100_000, "must be at most 100000 characters"),
  /** Checked as part of the tool definition (binding.capabilities). */
  capabilities: z.unknown().optional(),
  /** One test call; its output must satisfy outputSchema. */
  testArgs: argumentsSchema.optional(),
  /** Test calls; with `expect`, the output must equal it. */
  examples: z
    .array(z.strictObject({ arguments: argumentsSchema, expect: z.unknown().optional() }))
    .optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  policy: z.record(z.string(), z.unknown()).optional(),
});

export type SynthesisRequest = z.input<typeof synthesisRequestSchema>;

const fail = (stage: SynthesisStage, kind: string, errors: SynthesisIssue[]): SynthesisFailure => ({
  ok: false,
  stage,
  kind,
  errors,
});

function zodIssues(error: z.ZodError, rename: (path: string) => string = (p) => p): SynthesisIssue[] {
  return error.issues.map((issue) => ({
    path: rename(issue.path.map(String).join(".")),
    message: issue.message,
  }));
}

function fromSandboxError(error: SandboxError): SynthesisFailure {
  const stage: SynthesisStage =
    error.kind === "static" || error.kind === "compile" || error.kind === "output" ? error.kind : "runtime";
  if (error.kind === "static") return fail("static", "policy", error.violations);
  const issue: SynthesisIssue = { message: error.message };
  if (error.line !== undefined) issue.line = error.line;
  if (error.column !== undefined) issue.column = error.column;
  return fail(stage, error.kind, [issue]);
}

/** The tool a request describes, or the definition problems with their field paths. */
function toolFrom(
  request: z.infer<typeof synthesisRequestSchema>,
  registry: SynthesisRegistry | undefined,
): { tool: Tool } | SynthesisFailure {
  const { code, capabilities, testArgs: _t, examples: _e, ...fields } = request;
  const candidate = {
    ...fields,
    binding: { type: "sandbox", code, ...(capabilities === undefined ? {} : { capabilities }) },
  };
  const parsed = toolSchema.safeParse(candidate);
  if (!parsed.success)
    return fail(
      "definition",
      "invalid",
      zodIssues(parsed.error, (path) => path.replace(/^binding\.capabilities/, "capabilities")),
    );
  // Without a registry's own rules, the strictest: no command, no secret.
  const issues: SynthesisIssue[] =
    registry?.admit?.(parsed.data) ?? admissionIssues(parsed.data, { mcpCommands: [], toolSecrets: [] });
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const schema = parsed.data[field];
    if (schema === undefined) continue;
    for (const issue of checkJsonSchema(schema))
      issues.push({
        path: issue.path ? `${field}.${issue.path}` : field,
        message: `invalid JSON Schema: ${issue.message}`,
      });
  }
  return issues.length > 0 ? fail("definition", "invalid", issues) : { tool: parsed.data };
}

const schemaIssues = (prefix: string, issues: SchemaIssue[]): SynthesisIssue[] =>
  issues.map((i) => ({ path: i.path ? `${prefix}.${i.path}` : prefix, message: i.message }));

/** Checks, compiles, test-runs and (with a registry) registers a tool written by an agent or an LLM. */
export async function synthesize(request: unknown, deps: SynthesisDeps): Promise<SynthesisOutcome> {
  const parsed = synthesisRequestSchema.safeParse(request);
  if (!parsed.success) return fail("definition", "invalid", zodIssues(parsed.error));
  const definition = toolFrom(parsed.data, deps.registry);
  if (!("tool" in definition)) return definition;
  const { tool } = definition;
  const { code, name, testArgs, examples = [] } = parsed.data;
  const capabilities = tool.binding?.type === "sandbox" ? tool.binding.capabilities : undefined;

  const calls = [
    ...(testArgs === undefined ? [] : [{ arguments: testArgs, where: "testArgs" }]),
    ...examples.map((example, i) => ({ ...example, where: `examples.${i}.arguments` })),
  ];
  const argumentIssues = calls.flatMap((call) =>
    schemaIssues(call.where, validateAgainstSchema(tool.inputSchema, call.arguments)),
  );
  if (argumentIssues.length > 0) return fail("definition", "invalid", argumentIssues);

  const violations = checkCode(code, name);
  if (violations.length > 0) return fail("static", "policy", violations);

  try {
    await deps.sandbox.warm({ code, name, ...(capabilities ? { capabilities } : {}) });
  } catch (error) {
    if (error instanceof SandboxError) return fromSandboxError(error);
    throw error;
  }

  const tests: TestRun[] = [];
  for (const call of calls) {
    let run: Awaited<ReturnType<Sandbox["run"]>>;
    try {
      run = await deps.sandbox.run({
        code,
        name,
        args: call.arguments,
        ...(capabilities ? { capabilities } : {}),
        timeoutMs: tool.policy?.timeoutMs ?? deps.timeoutMs,
        signal: deps.signal,
      });
    } catch (error) {
      if (error instanceof SandboxError) return fromSandboxError(error);
      throw error;
    }
    if (tool.outputSchema !== undefined) {
      const issues = validateAgainstSchema(tool.outputSchema, run.value);
      if (issues.length > 0)
        return fail(
          "output",
          "schema",
          schemaIssues("output", issues).map((issue) => ({
            ...issue,
            message: `${issue.message} (for arguments ${JSON.stringify(call.arguments)}; outputSchema requires it)`,
          })),
        );
    }
    if ("expect" in call && call.expect !== undefined && !isDeepStrictEqual(run.value, call.expect))
      return fail("output", "mismatch", [
        {
          path: call.where.replace(/\.arguments$/, ".expect"),
          message: `for arguments ${JSON.stringify(call.arguments)} the tool returned ${JSON.stringify(run.value)}, expected ${JSON.stringify(call.expect)}`,
        },
      ]);
    tests.push({ arguments: call.arguments, output: run.value, console: run.console });
  }

  if (deps.registry === undefined) return { ok: true, tool, tests };
  const entry = await deps.registry.put(tool, "synthesized");
  return { ok: true, tool: entry.tool, tests };
}
