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

/** A sandbox whose hosts are booting, before the egress policy and browser it serves tools with exist. */
export interface StartedSandbox {
  sandbox: Sandbox;
  /** Gives the sandbox what ctx.fetch and ctx.browser go through; before it, no call can run. */
  attach(egress: EgressPolicy, browser: BrowserSupervisor): void;
}

/**
 * Starts the sandbox's hosts before the catalog is read, so that they boot meanwhile (a host takes about
 * as long to start as the catalog takes to read). The egress policy and browser depend on the catalog's
 * tools, so the sandbox reaches them through forwarders, attached by openToolRuntime before any call.
 */
export function startSandbox(hosts: number | undefined): StartedSandbox {
  let attached: { egress: EgressPolicy; browser: BrowserSupervisor } | undefined;
  const use = () => {
    if (attached === undefined) throw new Error("the sandbox ran a call before its runtime was attached");
    return attached;
  };
  const sandbox = new Sandbox({
    egress: {
      check: (url) => use().egress.check(url),
      fetch: (input, init) => use().egress.fetch(input, init),
    },
    browser: { perform: (grant, json, signal) => use().browser.perform(grant, json, signal) },
    hosts,
  });
  return {
    sandbox,
    attach(egress, browser) {
      attached = { egress, browser };
    },
  };
}

export async function openToolRuntime(
  config: SwitchboardConfig,
  registry: ToolRegistry,
  store: DataStore,
  {
    waitForSandbox = false,
    sandboxHosts,
    started = startSandbox(sandboxHosts),
  }: { waitForSandbox?: boolean; sandboxHosts?: number | undefined; started?: StartedSandbox } = {},
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
  started.attach(egress, browser);
  const { sandbox } = started;
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
