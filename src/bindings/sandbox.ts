// The provider behind a `sandbox` binding: runs the tool's JavaScript (inline `code`, or `file`, which the
// catalog loader has made absolute and confined to the catalog folder) in the shared Sandbox. The file is
// read once and cached. Errors about the file name the tool, never the path, and a file that does not
// define the tool's function is refused before it runs, so no error can echo another file's content.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { SandboxBinding, Tool } from "../catalog/index.ts";
import { CallTimeoutError, type Provider, withContextModifier } from "../dispatch/index.ts";
import { checkCode, type Sandbox, SandboxError } from "../synth/index.ts";
import { allowedChanges, readable } from "./declared-context.ts";
import { BindingError, type Grants, OPERATOR_GRANTS } from "./secrets.ts";

// What a tool's own code does with its input: arguments it cannot take, code the sandbox refuses, output
// that is not JSON, running out of time or memory. These are the caller's failures: they are not retried
// and do not count against the tool's breaker. An error the tool throws is left to the classification,
// which reads no message: it is the caller's too, unless the sandbox recorded that the tool's upstream
// failed during the run (SandboxError.upstream, its `cause`), or the tool's own error rules say otherwise.
const CALLER_KINDS: ReadonlySet<string> = new Set([
  "input",
  "static",
  "compile",
  "output",
  "timeout",
  "memory",
]);

const DEFINES_TOOL = /^the code must define async function /;

async function readToolFile(file: string, tool: string): Promise<string> {
  let code: string;
  try {
    code = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`tool ${tool}: its sandbox file (binding.file) is missing or unreadable`, {
      cause: error,
    });
  }
  if (checkCode(code, tool).some((v) => DEFINES_TOOL.test(v.message)))
    throw new Error(`tool ${tool}: its sandbox file (binding.file) does not define async function ${tool}`);
  return code;
}

export function sandboxProvider(
  binding: SandboxBinding,
  tool: Tool,
  sandbox: Sandbox,
  grants: Grants = OPERATOR_GRANTS,
): Provider {
  let code: Promise<string> | undefined =
    binding.code === undefined ? undefined : Promise.resolve(binding.code);
  const source = (): Promise<string> => {
    if (code === undefined) {
      if (binding.file === undefined)
        throw new Error(`tool ${tool.name}: sandbox binding has no code or file`);
      if (!grants.files)
        throw new BindingError(
          "ERR_FILE_NOT_ALLOWED",
          `tool ${tool.name}: only catalog files on disk may name a sandbox file; carry the code inline`,
        );
      code = readToolFile(binding.file, tool.name).catch((error: Error) => {
        code = undefined; // a missing file may appear later; do not cache the failure
        throw error;
      });
    }
    return code;
  };
  return {
    // A tool's primary file and its fallback files are different providers, each with its own breaker.
    id:
      binding.file === undefined ? `sandbox:${tool.name}` : `sandbox:${tool.name}#${basename(binding.file)}`,
    blame(error) {
      // The dispatcher's own attempt deadline races the sandbox's, which is set to the same timeout.
      if (error instanceof CallTimeoutError) return "caller";
      return error instanceof SandboxError && CALLER_KINDS.has(error.kind) ? "caller" : undefined;
    },
    async invoke(args, { signal, context }) {
      const access = binding.context;
      const { value, contextChanges } = await sandbox.run({
        code: await source(),
        name: tool.name,
        args,
        capabilities: binding.capabilities,
        timeoutMs: tool.policy?.timeoutMs,
        signal,
        ...(access ? { context: { ...readable(context, access.read) } } : {}),
      });
      const changes = allowedChanges(contextChanges, access?.write);
      return changes === undefined ? value : withContextModifier(value, changes);
    },
  };
}
