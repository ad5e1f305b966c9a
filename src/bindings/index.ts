// Bindings → providers: what actually runs a tool. The dispatcher asks for a tool's providers (its binding,
// then its fallback chain) and tries them in order.
import { applyMapping, type Binding, type SchemaIssue, type Tool } from "../catalog/index.ts";
import type { Provider } from "../dispatch/index.ts";
import type { EgressPolicy } from "../egress/index.ts";
import type { Sandbox } from "../synth/index.ts";
import { httpProvider, pathArgumentIssues } from "./http.ts";
import { closeMcpClients, mcpProvider } from "./mcp.ts";
import { sandboxProvider } from "./sandbox.ts";
import type { Grants } from "./secrets.ts";

export { toolDestinations } from "./destinations.ts";
export { HttpStatusError } from "./http.ts";
export { McpToolError } from "./mcp.ts";
export { BindingError, type Grants, OPERATOR_GRANTS } from "./secrets.ts";

export interface ProviderDeps {
  sandbox: Sandbox;
  /** Where http and mcp bindings may connect; without one, public addresses only. */
  egress?: EgressPolicy;
  /** What the tool may use (commands, secrets, files); without them, an operator's catalog tool's. */
  grants?: Grants;
}

function bindingProvider(binding: Binding, tool: Tool, deps: ProviderDeps): Provider {
  const { egress, grants } = deps;
  switch (binding.type) {
    case "sandbox":
      return sandboxProvider(binding, tool, deps.sandbox, grants);
    case "http":
      return httpProvider(binding, tool, { egress, grants });
    case "mcp":
      return mcpProvider(binding, tool, { egress, grants });
  }
}

export function createProvider(binding: Binding, tool: Tool, deps: ProviderDeps): Provider {
  const provider = bindingProvider(binding, tool, deps);
  const map = binding.map;
  if (map !== undefined) provider.mapOutput = (output, args) => applyMapping(map, output, args);
  return provider;
}

/** Arguments the tool's http binding cannot send (a URL path parameter of "..", "." or ""). */
export function bindingArgumentIssues(tool: Tool, args: Record<string, unknown>): SchemaIssue[] {
  return tool.binding?.type === "http" ? pathArgumentIssues(tool.binding, args) : [];
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
