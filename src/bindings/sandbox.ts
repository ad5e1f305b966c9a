// The provider behind a `sandbox` binding: runs the tool's JavaScript (inline `code`, or `file`, which the
// catalog loader has made absolute) in the shared Sandbox. The file is read once and cached.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { SandboxBinding, Tool } from "../catalog/index.ts";
import type { Provider } from "../dispatch/index.ts";
import type { Sandbox } from "../synth/index.ts";

export function sandboxProvider(binding: SandboxBinding, tool: Tool, sandbox: Sandbox): Provider {
  let code: Promise<string> | undefined =
    binding.code === undefined ? undefined : Promise.resolve(binding.code);
  const source = (): Promise<string> => {
    if (code === undefined) {
      if (binding.file === undefined)
        throw new Error(`tool ${tool.name}: sandbox binding has no code or file`);
      const file = binding.file;
      code = readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        code = undefined; // a missing file may appear later; do not cache the failure
        throw new Error(`tool ${tool.name}: cannot read ${file}: ${error.message}`, { cause: error });
      });
    }
    return code;
  };
  return {
    // A tool's primary file and its fallback files are different providers, each with its own breaker.
    id:
      binding.file === undefined ? `sandbox:${tool.name}` : `sandbox:${tool.name}#${basename(binding.file)}`,
    async invoke(args, { signal }) {
      const { value } = await sandbox.run({
        code: await source(),
        name: tool.name,
        args,
        capabilities: binding.capabilities,
        timeoutMs: tool.policy?.timeoutMs,
        signal,
      });
      return value;
    },
  };
}
