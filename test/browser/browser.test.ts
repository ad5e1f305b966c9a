// The browser capability against stand-in sites on loopback (test/fixtures/browser-sites.ts), through the
// real path: tool code in an isolate → ctx.browser → the supervisor's Chromium → the call's proxy → the
// site. Loopback is allowed the way an operator allows it (the egress allowlist), per supervisor.
import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { BrowserSupervisor, inspectPage } from "../../src/browser/index.ts";
import type { BrowserGrant } from "../../src/catalog/index.ts";
import { createEgressPolicy } from "../../src/egress/index.ts";
import { Sandbox, SandboxError } from "../../src/synth/index.ts";
import { type Sites, startSites } from "../fixtures/browser-sites.ts";

let sites: Sites;
const browser = new BrowserSupervisor({
  egress: createEgressPolicy({ allow: ["127.0.0.1"] }),
  maxSessions: 2,
});
// Deadlines no machine reaches, for the call and each operation: these tests are about what a page may do,
// not its pace (a busy machine starts Chromium and its renderers many times slower); the test about a
// deadline sets its own.
const UNREACHED_MS = 240_000;
const sandbox = new Sandbox({ browser, defaultTimeoutMs: UNREACHED_MS });

before(async () => {
  sites = await startSites();
});
after(async () => {
  sandbox.close();
  await browser.close();
  await sites.close();
});

function grant(overrides: Partial<BrowserGrant> = {}): BrowserGrant {
  return {
    allow: [`${sites.origin}/`],
    timeoutMs: 120_000,
    maxPages: 5,
    maxBytes: 5_000_000,
    maxContentChars: 200_000,
    maxScreenshotBytes: 500_000,
    ...overrides,
  };
}

async function run(name: string, code: string, args: unknown = {}, overrides: Partial<BrowserGrant> = {}) {
  const { value } = await sandbox.run({
    name,
    code,
    args: { origin: sites.origin, ...(args as object) },
    capabilities: { browser: grant(overrides) },
  });
  return value as Record<string, unknown>;
}

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SandboxError, String(error));
    return error;
  }
  assert.fail("the call succeeded");
}

describe("inspector", () => {
  it("calls a server-rendered list static and names its items' selector with a sample", async () => {
    const report = await inspectPage(browser, { url: `${sites.origin}/static` });
    assert.equal(report.verdict, "static", JSON.stringify(report));
    const top = report.candidates[0];
    assert.equal(top?.selector, "#stories > li.story");
    assert.equal(top?.count, 6);
    assert.equal(top?.inStatic, true);
    assert.deepEqual(top?.sample[0], { text: "Alpha ships", attrs: { class: "story", href: "/item/0" } });
  });

  it("calls an app that renders after its own API call dynamic, with the rendered list as candidate", async () => {
    const report = await inspectPage(browser, { url: `${sites.origin}/spa` });
    assert.equal(report.verdict, "dynamic", JSON.stringify(report));
    assert.ok(report.frameworks.includes("empty mount point"));
    const top = report.candidates[0];
    assert.equal(top?.selector, "#stories > li.story");
    assert.equal(top?.inStatic, false);
    assert.match(top?.sample[0]?.text ?? "", /^Alpha ships 100$/);
    assert.ok(report.rendered.textLength > report.static.textLength);
  });
});

describe("ctx.browser", () => {
  it("extracts the SPA's items after waiting for them", async () => {
    const value = await run(
      "top_stories",
      `async function top_stories(args, ctx) {
        await ctx.browser.open(args.origin + "/spa");
        await ctx.browser.waitFor("#stories > li.story");
        const items = await ctx.browser.extract("#stories > li.story a", { attrs: ["href"], limit: 5 });
        return { titles: items.map((i) => i.text), first: items[0].attrs.href };
      }`,
    );
    assert.deepEqual(value, {
      titles: ["Alpha ships", "Beta rises", "Gamma falls", "Delta waits", "Epsilon wins"],
      first: "/item/0",
    });
  });

  it('clicks "load more" and reads the items it added', async () => {
    const value = await run(
      "all_items",
      `async function all_items(args, ctx) {
        await ctx.browser.open(args.origin + "/more");
        const before = (await ctx.browser.extract("li.story")).length;
        await ctx.browser.click("#more");
        await ctx.browser.waitFor({ text: "Zeta sleeps" });
        return { before, after: (await ctx.browser.extract("li.story")).map((i) => i.text) };
      }`,
    );
    assert.equal(value.before, 2);
    assert.equal((value.after as string[]).length, 6);
  });

  it("fills and submits a login form, keeps the session cookie within the call, not across calls", async () => {
    const value = await run(
      "balance",
      `async function balance(args, ctx) {
        await ctx.browser.open(args.origin + "/login");
        await ctx.browser.fill("#user", "ada");
        await ctx.browser.fill("#password", "lovelace");
        await ctx.browser.click("#go");
        const welcome = await ctx.browser.text("#welcome");
        await ctx.browser.open(args.origin + "/account");
        return { welcome, balance: await ctx.browser.text("#balance") };
      }`,
    );
    assert.deepEqual(value, { welcome: "Welcome back, Ada", balance: "Balance: 42" });
    const fresh = await run(
      "account",
      `async function account(args, ctx) {
        const page = await ctx.browser.open(args.origin + "/account");
        return { url: page.url };
      }`,
    );
    assert.equal(fresh.url, `${sites.origin}/login`, "a new call starts in a fresh incognito context");
  });

  it("blocks and reports requests to hosts off the list, and refuses to open them", async () => {
    const value = await run(
      "leaky",
      `async function leaky(args, ctx) {
        const page = await ctx.browser.open(args.origin + "/leaky");
        await ctx.browser.waitFor("#done");
        let refused = "";
        try { await ctx.browser.open("http://127.0.0.2:9/other"); } catch (error) { refused = error.name + ": " + error.message; }
        return { blocked: await ctx.browser.blocked(), refused };
      }`,
    );
    const urls = (value.blocked as { url: string }[]).map((entry) => entry.url);
    assert.ok(
      urls.some((url) => url.startsWith("http://127.0.0.2:9/steal")),
      JSON.stringify(value),
    );
    assert.ok(
      urls.some((url) => url.startsWith("http://example.invalid/")),
      JSON.stringify(value),
    );
    assert.match(String(value.refused), /^BrowserError: blocked: http:\/\/127\.0\.0\.2:9\/other is outside/);
  });

  it("blocks a redirect off the list, refuses pop-ups and downloads, and tunnels only listed WebSockets", async () => {
    const value = await run(
      "edges",
      `async function edges(args, ctx) {
        const attempt = async (path) => {
          try { return await ctx.browser.open(args.origin + path); } catch (error) { return error.message; }
        };
        const redirect = await attempt("/redirect-out");
        await ctx.browser.open(args.origin + "/popup");
        await ctx.browser.click("#blank");
        const download = await attempt("/download");
        await ctx.browser.open(args.origin + "/socket");
        await ctx.browser.waitFor("#done[data-open=yes]");
        return { redirect, download, blocked: await ctx.browser.blocked() };
      }`,
    );
    assert.match(String(value.redirect), /^blocked: .*127\.0\.0\.2:9\/elsewhere/);
    assert.match(String(value.download), /^invalid: .*net::ERR_ABORTED/);
    const blocked = value.blocked as { url: string; reason: string; type?: string }[];
    const popups = blocked.filter((entry) => entry.type === "popup").map((entry) => entry.url);
    assert.deepEqual(
      popups.sort(),
      [`${sites.origin}/item/1`, `${sites.origin}/item/2`],
      JSON.stringify(blocked),
    );
    assert.ok(
      blocked.some((entry) => entry.url.startsWith("127.0.0.3:8080 ") && /allowlist/.test(entry.reason)),
      JSON.stringify(blocked),
    );
    assert.ok(sites.hits.includes("upgrade /ws"), "the listed WebSocket reached the site");
  });

  it("sends no UDP around the proxy: a page's WebRTC reaches no STUN server, loopback included", async (t) => {
    const stun = createSocket("udp4");
    let datagrams = 0;
    stun.on("message", () => datagrams++);
    stun.bind(0, "127.0.0.1");
    await once(stun, "listening");
    t.after(() => stun.close());
    const value = await run(
      "webrtc",
      `async function webrtc(args, ctx) {
        await ctx.browser.open(args.origin + "/webrtc?port=" + args.port);
        await ctx.browser.waitFor("#done");
        const [mark] = await ctx.browser.extract("#done", { attrs: ["data-how", "data-candidates"] });
        return { mark, blocked: await ctx.browser.blocked() };
      }`,
      { port: stun.address().port },
    );
    // Gathering ends at once when Chromium may use no UDP; otherwise the page gives up waiting after a
    // few seconds, long after the first binding request went out.
    assert.equal(datagrams, 0, "no STUN datagram reached the socket");
    const { attrs } = value.mark as { attrs: Record<string, string> };
    assert.deepEqual(attrs, { "data-how": "complete", "data-candidates": "0" }, JSON.stringify(value));
  });

  it("answers a screenshot as PNG data, and refuses one over the size cap", async () => {
    const code = `async function shot(args, ctx) {
        await ctx.browser.open(args.origin + "/static");
        return await ctx.browser.screenshot({ selector: "#stories" });
      }`;
    const image = await run("shot", code);
    assert.equal(image.type, "image");
    assert.equal(image.mimeType, "image/png");
    assert.ok(Buffer.from(String(image.data), "base64").subarray(1, 4).toString() === "PNG");
    const error = await failure(run("shot", code, {}, { maxScreenshotBytes: 100 }));
    assert.match(
      error.message,
      /BrowserError: limit: the screenshot \(\d+ bytes\) exceeds maxScreenshotBytes 100/,
    );
  });

  it("holds a call to its page count and its content size", async () => {
    const value = await run(
      "bounded",
      `async function bounded(args, ctx) {
        const attempt = async (work) => { try { await work(); return "ok"; } catch (error) { return error.message; } };
        await ctx.browser.open(args.origin + "/static");
        return {
          content: await attempt(() => ctx.browser.content()),
          second: await attempt(() => ctx.browser.open(args.origin + "/item/1")),
          text: (await ctx.browser.text("#stories > li.story")).length,
        };
      }`,
      {},
      { maxPages: 1, maxContentChars: 200 },
    );
    assert.match(
      String(value.content),
      /^limit: content\(\) is \d+ characters, more than maxContentChars 200$/,
    );
    assert.equal(value.second, "limit: a call may open at most 1 pages (maxPages)");
    assert.equal(value.text, "Alpha ships".length);
  });

  it("ends a page that never finishes loading at its deadline", async () => {
    const error = await failure(
      run(
        "never",
        `async function never(args, ctx) { await ctx.browser.open(args.origin + "/never"); return 1; }`,
        {},
        { timeoutMs: 1_000 },
      ),
    );
    assert.match(error.message, /BrowserError: timeout: open .*\/never did not finish within 1000 ms$/);
  });

  it("kills the browser when a page's endless script stops it answering; the next call works", async () => {
    const { kills, launches } = browser.stats;
    const error = await failure(
      run(
        "endless",
        `async function endless(args, ctx) { await ctx.browser.open(args.origin + "/endless"); return 1; }`,
        {},
        { timeoutMs: 1_000 },
      ),
    );
    assert.match(error.message, /BrowserError: timeout: .*the browser was killed/);
    assert.equal(browser.stats.kills, kills + 1);
    const value = await run(
      "after_kill",
      `async function after_kill(args, ctx) {
        await ctx.browser.open(args.origin + "/static");
        return { first: (await ctx.browser.extract("li.story", { limit: 1 }))[0].text };
      }`,
    );
    assert.deepEqual(value, { first: "Alpha ships" });
    assert.equal(browser.stats.launches, launches + 1);
  });
});

describe("supervision", () => {
  it("runs Chromium as nobody when the service runs as root", {
    skip: process.getuid?.() !== 0,
  }, async () => {
    const pid = (await browser.running()).process()?.pid;
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    assert.match(status, /^Uid:\s+65534\s+65534\s+65534\s+65534$/m);
  });

  it("kills a browser over its memory ceiling; the call in flight is answered browser_crashed", async () => {
    const tight = new BrowserSupervisor({
      egress: createEgressPolicy({ allow: ["127.0.0.1"] }),
      memoryCeilingMb: 1,
    });
    const tightSandbox = new Sandbox({ browser: tight, defaultTimeoutMs: UNREACHED_MS });
    try {
      const error = await failure(
        tightSandbox.run({
          name: "waits",
          code: `async function waits(args, ctx) {
            await ctx.browser.open(args.url);
            await ctx.browser.waitFor({ text: "never there" });
            return 1;
          }`,
          args: { url: `${sites.origin}/static` },
          capabilities: { browser: grant() },
        }),
      );
      assert.match(error.message, /BrowserError: browser_crashed: .*above the 1 MB ceiling/);
      assert.ok(tight.stats.kills >= 1);
    } finally {
      tightSandbox.close();
      await tight.close();
    }
  });
});

describe("a browser that stops answering", () => {
  it("is killed when it cannot make a call's context in time; the call is answered, the next one works", async () => {
    const frozen = new BrowserSupervisor({
      egress: createEgressPolicy({ allow: ["127.0.0.1"] }),
      answerTimeoutMs: 1_000,
    });
    const frozenSandbox = new Sandbox({ browser: frozen, defaultTimeoutMs: UNREACHED_MS });
    const code = `async function first(args, ctx) {
      await ctx.browser.open(args.url);
      return (await ctx.browser.extract("li.story", { limit: 1 }))[0].text;
    }`;
    const request = {
      name: "first",
      code,
      args: { url: `${sites.origin}/static` },
      capabilities: { browser: grant() },
    };
    try {
      const pid = (await frozen.running()).process()?.pid;
      assert.ok(pid !== undefined);
      process.kill(pid, "SIGSTOP");
      const error = await failure(frozenSandbox.run(request));
      assert.match(error.message, /BrowserError: browser_crashed: the browser stopped answering/);
      assert.equal(frozen.stats.kills, 1);
      assert.equal((await frozenSandbox.run(request)).value, "Alpha ships");
      assert.equal(frozen.stats.launches, 2);
    } finally {
      frozenSandbox.close();
      await frozen.close();
    }
  });
});

describe("egress", () => {
  it("refuses loopback to a tool whose allowlist names it when the operator has not allowed it", async () => {
    const strict = new BrowserSupervisor({ egress: createEgressPolicy() });
    const strictSandbox = new Sandbox({ browser: strict, defaultTimeoutMs: UNREACHED_MS });
    try {
      const error = await failure(
        strictSandbox.run({
          name: "probe",
          code: `async function probe(args, ctx) { await ctx.browser.open(args.url); return 1; }`,
          args: { url: `${sites.origin}/static?egress` },
          capabilities: { browser: grant() },
        }),
      );
      assert.match(
        error.message,
        /BrowserError: blocked: .*127\.0\.0\.1 is not a public address \(loopback\)/,
      );
      assert.ok(!sites.hits.includes("/static?egress"), "the proxy never connected to the site");
    } finally {
      strictSandbox.close();
      await strict.close();
    }
  });
});
