// A page made ready before any call takes it, so that a call does not wait for a renderer to start.
import type { BrowserContext, CDPSession, Page } from "puppeteer-core";
import { CallProxy } from "./proxy.ts";

/**
 * A context with its proxy and one blank page, made before any call takes it (a new page costs a renderer
 * process, too slow to start on a call's path). Nothing has been loaded in it; its proxy refuses everything
 * until a call binds it.
 */
export interface PreparedPage {
  context: BrowserContext;
  page: Page;
  proxy: CallProxy;
  /** A DevTools session on the page with the Page domain on: it hears a pop-up as the page asks for it. */
  cdp: CDPSession;
}

export async function preparePage(
  newContext: (proxyUrl: string) => Promise<BrowserContext>,
): Promise<PreparedPage> {
  const proxy = await CallProxy.start();
  try {
    const context = await newContext(proxy.url);
    try {
      const page = await context.newPage();
      // On before any request: the call's handler, added when a call takes the page, answers each one.
      await page.setRequestInterception(true);
      const cdp = await page.createCDPSession();
      await cdp.send("Page.enable");
      return { context, page, proxy, cdp };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  } catch (error) {
    proxy.close();
    throw error;
  }
}

/** A prepared page no call will take (its browser is going away, or the service is closing). */
export function discardPrepared(prepared: PreparedPage): void {
  prepared.proxy.close();
  void prepared.context.close().catch(() => {});
}
