// Bindings → providers: what actually runs a tool. The dispatcher asks for a tool's providers (its binding,
// then its fallback chain) and tries them in order.
import type { Binding, Tool } from "../catalog/index.ts";
import type { Provider } from "../dispatch/index.ts";
import type { Sandbox } from "../synth/index.ts";
import { httpProvider } from "./http.ts";
import { closeMcpClients, mcpProvider } from "./mcp.ts";
import { sandboxProvider } from "./sandbox.ts";

export { HttpStatusError } from "./http.ts";
export { McpToolError } from "./mcp.ts";
export { BindingError } from "./secrets.ts";

export interface ProviderDeps {
  sandbox: Sandbox;
}

export function createProvider(binding: Binding, tool: Tool, deps: ProviderDeps): Provider {
  switch (binding.type) {
    case "sandbox":
      return sandboxProvider(binding, tool, deps.sandbox);
    case "http":
      return httpProvider(binding, tool);
    case "mcp":
      return mcpProvider(binding, tool);
  }
}

// Providers are built once per tool definition: a put replaces the Tool object, so its providers follow.
const built = new WeakMap<Tool, Provider[]>();

/** The tool's binding then its fallback chain, as providers, in the order the dispatcher tries them. */
export function providersFor(tool: Tool, deps: ProviderDeps): Provider[] {
  let providers = built.get(tool);
  if (!providers) {
    const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])].filter((b) => b !== undefined);
    providers = bindings.map((binding) => createProvider(binding, tool, deps));
    built.set(tool, providers);
  }
  return providers;
}

/** Ends what providers keep open between calls (MCP clients and the stdio servers they started). */
export function closeProviders(): Promise<void> {
  return closeMcpClients();
}
