// One tool call's browser: a fresh incognito context behind its own egress proxy, at most one page, closed
// when the call ends. Every request the page makes is checked twice: by request interception against the
// tool's URL allowlist (which sees full URLs, redirects and worker requests) and by the proxy (which sees
// WebSockets and the address actually dialled).
import type { BrowserContext, HTTPRequest, HTTPResponse, Page } from "puppeteer-core";
import type { BrowserGrant } from "../catalog/index.ts";
import { isAllowedUrl } from "../egress/index.ts";
import { type BlockedRequest, BrowserFailure, type Operation, operationSchema } from "./operations.ts";
import type { PreparedPage } from "./prepared-page.ts";
import { BLOCKED_HEADER, type CallProxy, type EgressCheck } from "./proxy.ts";

/** How long a page that missed a deadline gets to prove that its renderer still answers. */
const PROBE_MS = 3_000;
/** After a click or a key press, how long a navigation has to start before the action counts as done. */
const SETTLE_MS = 100;
const MAX_BLOCKED_REPORTED = 100;

export interface PageSnapshot {
  url: string;
  status: number | null;
  title: string;
  /** The document as the server sent it. */
  raw: string;
  /** The DOM serialised after the page's scripts ran. */
  rendered: string;
  blocked: BlockedRequest[];
}

export interface SessionHost {
  /** The page's renderer stopped answering: kill the browser (it is restarted for the next call). */
  kill(reason: string): void;
  /** The browser died during this call (crash, kill, memory ceiling): its reason, else undefined. */
  lostReason(): string | undefined;
  /** The session closed (once): its slot is free for another call. */
  closed(): void;
}

// The few DOM shapes the functions run in the page use (this project compiles without the DOM library).
interface Rendered {
  innerText?: string;
}
interface PageWindow {
  document: { body: { innerText: string } | null };
}

// Run in the page (serialised by puppeteer), so they must not reach for anything outside themselves.
// biome-ignore lint/performance/useDomNodeTextContent: innerText is the text a reader sees; textContent adds hidden text
const bodyText = () => (globalThis as unknown as PageWindow).document.body?.innerText ?? "";
// biome-ignore lint/performance/useDomNodeTextContent: as above
const elementText = (element: unknown) => (element as Rendered).innerText ?? "";

const NETWORK_SCHEMES = new Set(["http:", "https:", "ws:", "wss:"]);
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BrowserFailure("timeout", `${what} did not finish within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export class BrowserSession {
  private page: Page | undefined;
  private pagesOpened = 0;
  private readonly blocked: BlockedRequest[] = [];
  /** Pop-ups seen whose pages are still starting: reported and closed once they have. */
  private readonly pendingPopups = new Set<Promise<void>>();
  private navigationsStarted = 0;
  private navigationsLoaded = 0;
  private closed = false;
  /** The last main-frame document's response, whose body snapshot reads as the server sent it. */
  private lastDocument: HTTPResponse | undefined;
  private readonly host: SessionHost;
  private readonly grant: BrowserGrant;
  private readonly context: BrowserContext;
  private readonly proxy: CallProxy;

  private constructor(host: SessionHost, grant: BrowserGrant, context: BrowserContext, proxy: CallProxy) {
    this.host = host;
    this.grant = grant;
    this.context = context;
    this.proxy = proxy;
  }

  /** Binds a prepared page to one call: its allowlist, egress rules and bounds. */
  static open(
    host: SessionHost,
    grant: BrowserGrant,
    egress: EgressCheck,
    prepared: PreparedPage,
  ): BrowserSession {
    const { context, page, proxy, cdp } = prepared;
    const session = new BrowserSession(host, grant, context, proxy);
    proxy.bind({
      allowsUrl: (url) => isAllowedUrl(url, grant.allow),
      allowsOrigin: (hostname, port) =>
        grant.allow.some((prefix) => {
          const url = new URL(prefix);
          const name = url.hostname.replace(/^\[(.*)\]$/, "$1");
          return name === hostname && Number(url.port || (url.protocol === "https:" ? 443 : 80)) === port;
        }),
      egress,
      maxBytes: grant.maxBytes,
      onBlocked: (url, reason) => session.report({ url, reason }),
    });
    // A page the tool did not open (window.open, target=_blank) is a pop-up: listed as the page asks for it
    // (Page.windowOpen), then closed once it exists. Its page starts in a renderer of its own, which on a
    // busy machine takes seconds, and only then does puppeteer announce it: listing it then would miss a
    // `blocked()` asked meanwhile. One the page did not announce is listed when it appears; until then it
    // is pending, and the blocked list waits for it.
    const announced: string[] = [];
    cdp.on("Page.windowOpen", ({ url }) => {
      announced.push(url);
      session.report({ url, reason: "pop-ups are refused", type: "popup" });
    });
    context.on("targetcreated", (target) => {
      if (target.type() !== "page") return;
      const handled = target
        .page()
        .then((popup) => {
          if (popup !== null && popup !== page) {
            const at = announced.indexOf(target.url());
            if (at >= 0) announced.splice(at, 1);
            else session.report({ url: target.url(), reason: "pop-ups are refused", type: "popup" });
            void popup.close().catch(() => {});
          }
        })
        .catch(() => {})
        .finally(() => session.pendingPopups.delete(handled));
      session.pendingPopups.add(handled);
    });
    session.attach(page);
    return session;
  }

  /** Runs one operation from its JSON request; answers JSON. Throws BrowserFailure. */
  async perform(json: string): Promise<string> {
    if (this.closed) throw new BrowserFailure("unavailable", "the call's browser session is closed");
    let request: Operation;
    try {
      const parsed = operationSchema.safeParse(JSON.parse(json));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new BrowserFailure("invalid", `${issue?.path.join(".") || "request"}: ${issue?.message}`);
      }
      request = parsed.data;
    } catch (error) {
      if (error instanceof BrowserFailure) throw error;
      throw new BrowserFailure("invalid", "the request is not JSON");
    }
    const ms = ("timeoutMs" in request ? request.timeoutMs : undefined) ?? this.grant.timeoutMs;
    try {
      // The operation's own deadline, plus a margin for puppeteer to report its own timeout first.
      return JSON.stringify(await withDeadline(this.run(request, ms), ms + 500, `${request.op}`));
    } catch (error) {
      throw await this.explain(error, request, ms);
    }
  }

  /**
   * For the inspector: loads `url` and answers the document as the server sent it and as rendered after
   * its scripts ran (and its network went quiet, within `settleMs`).
   */
  async snapshot(target: string, settleMs: number): Promise<PageSnapshot> {
    const ms = this.grant.timeoutMs;
    try {
      return await withDeadline(
        (async () => {
          const opened = await this.open(target, ms);
          const page = this.current();
          await page.waitForNetworkIdle({ idleTime: 300, timeout: settleMs }).catch(() => {});
          const raw = (await this.lastDocument?.text().catch(() => undefined)) ?? "";
          return {
            url: opened.url,
            status: opened.status,
            title: await page.title(),
            raw: this.capped(raw, "the document"),
            rendered: this.capped(await page.content(), "the rendered page"),
            blocked: [...this.blocked],
          };
        })(),
        ms + settleMs + 1_000,
        "inspect",
      );
    } catch (error) {
      throw await this.explain(error, { op: "open", url: target }, ms);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.proxy.close();
    try {
      await withDeadline(this.context.close(), 3_000, "closing the context");
    } catch {
      if (this.host.lostReason() === undefined) this.host.kill("its context did not close");
    } finally {
      this.host.closed();
    }
  }

  private report(entry: BlockedRequest): void {
    if (this.blocked.length < MAX_BLOCKED_REPORTED) this.blocked.push(entry);
  }

  private async run(request: Operation, ms: number): Promise<unknown> {
    switch (request.op) {
      case "open":
        return this.open(request.url, ms);
      case "blocked":
        await Promise.all([...this.pendingPopups]);
        return [...this.blocked];
    }
    const page = this.loaded();
    switch (request.op) {
      case "waitFor":
        if (typeof request.target === "string") await page.waitForSelector(request.target, { timeout: ms });
        else
          await page.waitForFunction(
            (text: string) =>
              // biome-ignore lint/performance/useDomNodeTextContent: innerText is the text a reader sees; textContent adds hidden text
              (globalThis as unknown as PageWindow).document.body?.innerText.includes(text) === true,
            { timeout: ms, polling: 100 },
            request.target.text,
          );
        return true;
      case "click":
        return this.acting(page, ms, () => page.locator(request.selector).setTimeout(ms).click());
      case "fill":
        await page.locator(request.selector).setTimeout(ms).fill(request.value);
        return true;
      case "select":
        return page.select(request.selector, ...request.values);
      case "press":
        return this.acting(page, ms, async () => {
          if (request.selector !== undefined) await page.focus(request.selector);
          // biome-ignore lint/suspicious/noExplicitAny: puppeteer types keys as a union; unknown keys throw
          await page.keyboard.press(request.key as any);
        });
      case "text": {
        const text =
          request.selector === undefined
            ? await page.evaluate(bodyText)
            : await page.$eval(request.selector, elementText);
        return this.capped(text, "text()");
      }
      case "extract": {
        const items = await page.$$eval(
          request.selector,
          (elements, attrs, limit) =>
            elements.slice(0, limit).map((element) => {
              const names = attrs ?? element.getAttributeNames();
              const values: Record<string, string> = {};
              for (const name of names) {
                const value = element.getAttribute(name);
                if (value !== null) values[name] = value;
              }
              return {
                // biome-ignore lint/performance/useDomNodeTextContent: innerText is the text a reader sees; textContent adds hidden text
                text: ((element as Rendered).innerText ?? element.textContent ?? "").trim(),
                attrs: values,
              };
            }),
          request.attrs ?? null,
          request.limit ?? 1000,
        );
        this.capped(JSON.stringify(items), "extract()");
        return items;
      }
      case "screenshot": {
        let png: Uint8Array;
        if (request.selector === undefined)
          png = await page.screenshot({ fullPage: request.fullPage === true });
        else {
          const element = await page.$(request.selector);
          if (element === null)
            throw new BrowserFailure("not_found", `no element matches ${request.selector}`);
          png = await element.screenshot();
        }
        if (png.byteLength > this.grant.maxScreenshotBytes)
          throw new BrowserFailure(
            "limit",
            `the screenshot (${png.byteLength} bytes) exceeds maxScreenshotBytes ${this.grant.maxScreenshotBytes}`,
          );
        return { type: "image", mimeType: "image/png", data: Buffer.from(png).toString("base64") };
      }
      case "content":
        return this.capped(await page.content(), "content()");
    }
  }

  private capped(text: string, what: string): string {
    if (text.length > this.grant.maxContentChars)
      throw new BrowserFailure(
        "limit",
        `${what} is ${text.length} characters, more than maxContentChars ${this.grant.maxContentChars}`,
      );
    return text;
  }

  private current(): Page {
    if (this.page === undefined) throw new BrowserFailure("unavailable", "the call's page is gone");
    return this.page;
  }

  /** Whether open(url) was called: the other operations need a loaded page. */
  private loaded(): Page {
    if (this.pagesOpened === 0) throw new BrowserFailure("invalid", "no page is open: call open(url) first");
    return this.current();
  }

  private async open(target: string, ms: number) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new BrowserFailure("invalid", `"${target}" is not an absolute URL`);
    }
    if (!NETWORK_SCHEMES.has(url.protocol) || !isAllowedUrl(url, this.grant.allow))
      throw new BrowserFailure(
        "blocked",
        `${url.href} is outside this tool's allowlist (${this.grant.allow.join(", ")})`,
      );
    if (this.pagesOpened >= this.grant.maxPages)
      throw new BrowserFailure("limit", `a call may open at most ${this.grant.maxPages} pages (maxPages)`);
    this.pagesOpened += 1;
    const page = this.current();
    const response = await page.goto(url.href, { waitUntil: "load", timeout: ms });
    this.lastDocument = response ?? undefined;
    if (response?.headers()[BLOCKED_HEADER] !== undefined) {
      const why = this.blocked.findLast((entry) => entry.url === response.url())?.reason ?? "refused";
      throw new BrowserFailure("blocked", `${response.url()}: ${why}`);
    }
    return {
      url: page.url(),
      status: response?.status() ?? null,
      title: await page.title(),
      blocked: [...this.blocked],
    };
  }

  private attach(page: Page): void {
    page.setDefaultTimeout(this.grant.timeoutMs);
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
    page.on("load", () => {
      this.navigationsLoaded = this.navigationsStarted;
    });
    page.on("request", (request) => this.intercept(page, request));
    this.page = page;
  }

  private intercept(page: Page, request: HTTPRequest): void {
    if (request.isInterceptResolutionHandled()) return;
    const raw = request.url();
    let verdict: string | undefined;
    try {
      const url = new URL(raw);
      if (LOCAL_SCHEMES.has(url.protocol)) verdict = undefined;
      else if (!NETWORK_SCHEMES.has(url.protocol)) verdict = `the ${url.protocol} scheme is refused`;
      else if (!isAllowedUrl(url, this.grant.allow)) verdict = "outside the tool's allowlist";
    } catch {
      verdict = "not a valid URL";
    }
    if (verdict !== undefined) {
      this.report({ url: raw.slice(0, 2000), reason: verdict, type: request.resourceType() });
      void request.abort("blockedbyclient").catch(() => {});
      return;
    }
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.navigationsStarted += 1;
    void request.continue().catch(() => {});
  }

  /** Runs a click or key press, then waits for the navigation it started, if it started one. */
  private async acting(page: Page, ms: number, action: () => Promise<unknown>): Promise<true> {
    await action();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if (this.navigationsLoaded < this.navigationsStarted)
      await page.waitForNavigation({ waitUntil: "load", timeout: ms }).catch((error: Error) => {
        if (this.navigationsLoaded < this.navigationsStarted) throw error;
      });
    return true;
  }

  /** A failure as a BrowserFailure; a missed deadline on a renderer that no longer answers kills the browser. */
  private async explain(error: unknown, request: Operation, ms: number): Promise<BrowserFailure> {
    const lost = this.host.lostReason();
    if (lost !== undefined)
      return new BrowserFailure(
        "browser_crashed",
        `the browser was lost during ${request.op} (${lost}); it is restarted for the next call`,
      );
    if (error instanceof BrowserFailure && error.class !== "timeout") return error;
    const message = (error as Error)?.message ?? String(error);
    const what = request.op === "open" ? `open ${request.url}` : request.op;
    if (error instanceof BrowserFailure || (error as Error)?.name === "TimeoutError") {
      if (this.page !== undefined && !(await this.answers(this.page))) {
        this.host.kill("a page's script kept its renderer busy past a deadline");
        return new BrowserFailure(
          "timeout",
          `${what} did not finish within ${ms} ms and the page stopped answering (an endless script?); the browser was killed and is restarted for the next call`,
        );
      }
      return new BrowserFailure("timeout", `${what} did not finish within ${ms} ms`);
    }
    if (/ERR_BLOCKED_BY_CLIENT|ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY/.test(message)) {
      const last = this.blocked.at(-1);
      return new BrowserFailure("blocked", `${what}: ${last ? `${last.url}: ${last.reason}` : message}`);
    }
    if (/No element found|failed to find element|no node found/i.test(message))
      return new BrowserFailure("not_found", `${what}: no element matches the selector`);
    if (/is not a valid selector|Unknown key|SyntaxError/i.test(message))
      return new BrowserFailure("invalid", `${what}: ${message.split("\n")[0]}`);
    if (/Target closed|Session closed|Connection closed|detached/i.test(message))
      return new BrowserFailure(
        "browser_crashed",
        `${what}: the page was closed or crashed (${message.split("\n")[0]})`,
      );
    return new BrowserFailure("invalid", `${what}: ${message.split("\n")[0]?.slice(0, 500)}`);
  }

  private async answers(page: Page): Promise<boolean> {
    try {
      await withDeadline(page.evaluate("1"), PROBE_MS, "the probe");
      return true;
    } catch {
      return false;
    }
  }
}
