// The destinations a catalog tool on disk names (its http URL, its MCP server URL, its ctx.fetch prefixes):
// the operator wrote them, so they join the egress allowlist even when they are private or loopback.
import type { Binding, Tool } from "../catalog/index.ts";
import { OPERATOR_GRANTS, readSecret } from "./secrets.ts";

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/** host:port of a URL template, with {env.NAME} filled and arguments set aside; undefined when unknown. */
function hostPort(template: string, tool: string): string | undefined {
  const head = template.split(/[?#]/)[0] ?? "";
  // Two stand-ins for the arguments: a host that changes with them is chosen by the caller, not fixed.
  const [first, second] = ["x", "y"].map((standIn) => {
    try {
      const filled = head.replace(/\{([^{}]+)\}/g, (_, placeholder: string) =>
        placeholder.startsWith("env.")
          ? readSecret(placeholder.slice(4), tool, "http", OPERATOR_GRANTS)
          : standIn,
      );
      const url = new URL(filled);
      const port = url.port || DEFAULT_PORTS[url.protocol];
      return port === undefined ? undefined : `${url.hostname}:${port}`;
    } catch {
      return undefined; // an unset variable: nothing the operator fixed yet
    }
  });
  return first === second ? first : undefined;
}

function bindingTemplates(binding: Binding): string[] {
  if (binding.type === "http") return [binding.url];
  if (binding.type === "mcp") return binding.url === undefined ? [] : [binding.url];
  return binding.capabilities?.fetch?.allow ?? [];
}

/** The host:port pairs a catalog tool's bindings (and fallbacks) send requests to. */
export function toolDestinations(tool: Tool): string[] {
  const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])].filter((b) => b !== undefined);
  return bindings
    .flatMap(bindingTemplates)
    .map((template) => hostPort(template, tool.name))
    .filter((entry): entry is string => entry !== undefined);
}
