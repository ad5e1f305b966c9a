// The console's browser tests drive the Chromium the project ships (@sparticuz/chromium, unpacked by
// src/browser) through puppeteer-core, and check pages with axe-core injected into them.

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { locateChromium } from "../../src/browser/index.ts";

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await locateChromium(),
    headless: "shell",
    // --lang: the tests read numbers and times as an English-speaking maintainer sees them.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US"],
    protocolTimeout: 300_000,
  });
}

/** Generous waits: the machine may be at load 10; a wait ends as soon as its condition holds. */
export const WAIT = { timeout: Number(process.env.CONSOLE_TEST_WAIT_MS) || 240_000 };

let axeSource: string | undefined;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // page.evaluate runs through the DevTools protocol, which the page's CSP (script-src 'self') does not block.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is the global the injected source defines
    const axe = (globalThis as any).axe;
    const result = await axe.run({ exclude: [] }, { resultTypes: ["violations"] });
    return (
      result.violations as {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[]
    )
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => n.target.join(" ")),
      }));
  });
}
