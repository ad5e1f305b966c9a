// Operations that need no data folder: a tool checked and run in the sandbox without registering it, and a
// page inspected. They open only the sandbox and the browser they use, with the operator's egress rules,
// so `switchboard synth` and `switchboard inspect` stay quick and touch no store.
import { BrowserSupervisor, type InspectReport, type InspectRequest, inspectPage } from "../browser/index.ts";
import { createEgressPolicy } from "../egress/index.ts";
import { Sandbox, type SynthesisOutcome, type SynthesisRequest, synthesize } from "../synth/index.ts";

export interface StandaloneOptions {
  /** SWITCHBOARD_EGRESS_ALLOW: the non-public destinations the operator allows. */
  egressAllow: string[];
  /** SWITCHBOARD_CHROMIUM: a browser to use instead of the bundled one. */
  chromium?: string | undefined;
}

function browserFor(options: StandaloneOptions): BrowserSupervisor {
  // Launched only if something uses it.
  return new BrowserSupervisor({
    egress: createEgressPolicy({ allow: options.egressAllow }),
    ...(options.chromium ? { executable: options.chromium } : {}),
  });
}

/** Checks a tool's code and runs its tests in the sandbox; nothing is stored. */
export async function checkTool(
  request: SynthesisRequest,
  options: StandaloneOptions,
): Promise<SynthesisOutcome> {
  const browser = browserFor(options);
  // One synthesis needs one sandbox host process; starting a second would only compete with it for CPU.
  const sandbox = new Sandbox({ hosts: 1, browser });
  try {
    return await synthesize(request, { sandbox });
  } finally {
    sandbox.close();
    await browser.close();
  }
}

/** Tells whether a page is static or dynamic, with selectors for its lists. */
export async function inspectUrl(
  request: InspectRequest,
  options: StandaloneOptions,
): Promise<InspectReport> {
  const browser = browserFor(options);
  try {
    return await inspectPage(browser, request);
  } finally {
    await browser.close();
  }
}
