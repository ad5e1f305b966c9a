// What runs tools: the egress policy, the supervised browser, the sandbox and the dispatcher over the
// registry's tools, with the grants each tool's origin earns.
import {
  closeProviders,
  type Grants,
  OPERATOR_GRANTS,
  providersFor,
  toolDestinations,
} from "../bindings/index.ts";
import { BrowserSupervisor } from "../browser/index.ts";
import type { Capabilities, Tool, ToolRegistry } from "../catalog/index.ts";
import { Dispatcher } from "../dispatch/index.ts";
import { createEgressPolicy, type EgressPolicy } from "../egress/index.ts";
import type { DataStore } from "../store/index.ts";
import { Sandbox } from "../synth/index.ts";
import type { SwitchboardConfig } from "./config.ts";
import { AppError } from "./types.ts";

export interface ToolRuntime {
  readonly egress: EgressPolicy;
  readonly browser: BrowserSupervisor;
  readonly sandbox: Sandbox;
  readonly dispatcher: Dispatcher;
  /** A tool granted `browser` is refused, with how to install Chromium, where Chromium is missing. */
  requireBrowser(capabilities: Capabilities | undefined): Promise<void>;
  /** After the dispatcher: the providers' connections, the sandbox hosts and the browser. */
  close(): Promise<void>;
}

export async function openToolRuntime(
  config: SwitchboardConfig,
  registry: ToolRegistry,
  store: DataStore,
  {
    waitForSandbox = false,
    sandboxHosts,
  }: { waitForSandbox?: boolean; sandboxHosts?: number | undefined } = {},
): Promise<ToolRuntime> {
  const { security } = config;
  // The operator's catalog files are trusted with what they name: their destinations join the egress
  // allowlist, and their bindings may start their commands and read the secrets they reference.
  const operatorTools = registry.entries().filter((entry) => entry.origin === "catalog");
  const egress = createEgressPolicy({
    allow: [...security.egressAllow, ...operatorTools.flatMap((entry) => toolDestinations(entry.tool))],
  });
  const apiGrants: Grants = { commands: security.mcpCommands, secrets: security.toolSecrets, files: false };
  const grantsFor = (tool: Tool): Grants => {
    const entry = registry.entry(tool.name);
    return entry?.origin === "catalog" && entry.tool === tool ? OPERATOR_GRANTS : apiGrants;
  };
  const browser = new BrowserSupervisor({
    // The same policy as ctx.fetch and http bindings: the operator's list and its catalog tools' origins.
    egress,
    ...(config.browser.chromium ? { executable: config.browser.chromium } : {}),
  });
  const sandbox = new Sandbox({ egress, browser, hosts: sandboxHosts });
  const dispatcher = new Dispatcher({
    tools: registry,
    providers: (tool) => providersFor(tool, { sandbox, egress, grants: grantsFor(tool) }),
    store,
    options: config.dispatch,
  });
  await dispatcher.ready();
  // A host that cannot start is not this call's failure: the sandbox calls then fail with its reason.
  if (waitForSandbox) await sandbox.whenReady().catch(() => undefined);
  return {
    egress,
    browser,
    sandbox,
    dispatcher,
    async requireBrowser(capabilities) {
      if (capabilities?.browser === undefined) return;
      const missing = await browser.unavailable();
      if (missing !== undefined) throw new AppError("unavailable", missing);
    },
    async close() {
      await closeProviders();
      sandbox.close();
      await browser.close();
    },
  };
}
