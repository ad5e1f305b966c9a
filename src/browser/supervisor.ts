// One Chromium process for the whole service, launched on first use, outside the main process, and
// watched: a browser that crashes, stops answering or grows past its memory ceiling is killed (its whole
// process group) and launched again for the next call. Calls share it only through separate incognito
// contexts, one per call, at most `maxSessions` at a time.
import { constants } from "node:fs";
import { access, chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "puppeteer-core";
import type { BrowserGrant } from "../catalog/index.ts";
import { ChromiumMissingError, locateChromium } from "./chromium.ts";
import { BrowserFailure } from "./operations.ts";
import { discardPrepared, type PreparedPage, preparePage } from "./prepared-page.ts";
import type { EgressCheck } from "./proxy.ts";
import { BrowserSession, type SessionHost } from "./session.ts";

export interface SupervisorOptions {
  /** src/egress's policy (check only): the operator's allow list and its catalog tools' origins. */
  egress: EgressCheck;
  /** Calls with a browser at the same time; later ones wait for a slot. */
  maxSessions?: number;
  /** Resident memory of the browser and all its processes; above it the browser is killed. */
  memoryCeilingMb?: number;
  /** V8 heap limit of each page's renderer. */
  pageHeapMb?: number;
  /** How long a running browser may take to create a call's context before it counts as stuck. */
  answerTimeoutMs?: number;
  /** An executable to use instead of the packaged Chromium (SWITCHBOARD_CHROMIUM). */
  executable?: string;
}

const LAUNCH_TIMEOUT_MS = 20_000;
const WATCH_INTERVAL_MS = 1_000;

// Chromium's own sandbox needs a non-root user and user namespaces; the service commonly runs as root in a
// container, where Chromium refuses to start sandboxed, so it runs with --no-sandbox (SECURITY notes in
// SECURITY.md, "The browser capability"). Everything else here narrows what a page can reach or keep.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-sync",
  "--no-first-run",
  "--no-pings",
  "--mute-audio",
  "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider",
  // Every page connection goes through its call's proxy, which resolves names itself; a name Chromium
  // would resolve on its own (outside any proxy) resolves to nothing.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  // WebRTC sends its STUN/ICE and media as UDP datagrams, which no HTTP proxy carries: without this a page
  // reaches any UDP port, internal ones included, around the call's proxy and its egress checks.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

export class BrowserSupervisor {
  private browser: Promise<Browser> | undefined;
  /** The launched browser that new calls get; undefined while none runs or one is launching. */
  private current: Browser | undefined;
  private readonly lost = new WeakMap<Browser, string>();
  /** Settles once a browser's process has exited and its folder is removed. */
  private readonly removals = new WeakMap<Browser, Promise<void>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private watch: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly maxSessions: number;
  private readonly calls = new WeakMap<AbortSignal, Promise<BrowserSession>>();
  /** A page prepared ahead of the next call, in the browser that made it. */
  private spare: { browser: Browser; prepared: Promise<PreparedPage> } | undefined;
  /** Launches and kills so far, for tests and the bench. */
  readonly stats = { launches: 0, kills: 0 };

  private readonly options: SupervisorOptions;

  constructor(options: SupervisorOptions) {
    this.options = options;
    this.maxSessions = options.maxSessions ?? 4;
  }

  /** undefined when Chromium can be found, else the sentence that says how to install it. */
  async unavailable(): Promise<string | undefined> {
    try {
      await locateChromium(this.options.executable);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /**
   * Performs one ctx.browser request of a call, as a capability: plain JSON in and out. The call's session
   * is keyed by the call's signal, opened on its first request and closed when the signal aborts, which
   * the sandbox does when the call ends, however it ends.
   */
  perform(grant: BrowserGrant, json: string, signal: AbortSignal): Promise<string> {
    if (signal.aborted) return Promise.reject(new BrowserFailure("unavailable", "the call has ended"));
    let session = this.calls.get(signal);
    if (session === undefined) {
      const opening = this.session(grant, signal);
      session = opening;
      this.calls.set(signal, opening);
      signal.addEventListener(
        "abort",
        () => {
          this.calls.delete(signal);
          opening.then((opened) => opened.close()).catch(() => {});
        },
        { once: true },
      );
    }
    return session.then((opened) => opened.perform(json));
  }

  /** A fresh incognito context for one call; close() the session when the call ends. */
  async session(grant: BrowserGrant, signal?: AbortSignal): Promise<BrowserSession> {
    if (this.closed) throw new BrowserFailure("unavailable", "the browser is closing");
    await this.slot(signal);
    let browser: Browser | undefined;
    try {
      browser = await this.running();
      const live = browser;
      const prepared = await this.takePrepared(live);
      const host: SessionHost = {
        kill: (reason) => this.kill(live, reason),
        lostReason: () => this.lostReason(live),
        closed: () => this.release(),
      };
      return BrowserSession.open(host, grant, this.options.egress, prepared);
    } catch (error) {
      this.release();
      if (error instanceof BrowserFailure) throw error;
      if (error instanceof ChromiumMissingError) throw new BrowserFailure("unavailable", error.message);
      const lost = browser === undefined ? undefined : this.lostReason(browser);
      throw new BrowserFailure(
        "browser_crashed",
        lost === undefined
          ? `the browser could not be started: ${(error as Error).message}`
          : `the browser was lost while preparing the call (${lost}); it is restarted for the next call`,
      );
    }
  }

  /**
   * The spare prepared page of `browser` if there is one, else a new one; then starts preparing the next
   * spare, so that a call seldom waits for a renderer process to start.
   */
  private async takePrepared(browser: Browser): Promise<PreparedPage> {
    const spare = this.spare?.browser === browser ? this.spare.prepared : undefined;
    this.spare = undefined;
    const prepared = (await spare?.catch(() => undefined)) ?? (await this.prepare(browser));
    setImmediate(() => this.refillSpare(browser));
    return prepared;
  }

  private prepare(browser: Browser): Promise<PreparedPage> {
    return preparePage((proxyServer) => this.newContext(browser, proxyServer));
  }

  private refillSpare(browser: Browser): void {
    if (this.closed || this.spare !== undefined || this.current !== browser) return;
    const prepared = this.prepare(browser);
    this.spare = { browser, prepared };
    prepared.catch(() => {
      if (this.spare?.prepared === prepared) this.spare = undefined;
    });
  }

  private dropSpare(): void {
    const spare = this.spare;
    this.spare = undefined;
    spare?.prepared.then(discardPrepared, () => {});
  }

  /** A context behind the call's proxy; a browser that cannot make one in time is stuck and is killed. */
  private async newContext(browser: Browser, proxyServer: string): Promise<BrowserContext> {
    let timer: NodeJS.Timeout | undefined;
    const limit = this.options.answerTimeoutMs ?? 10_000;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.kill(browser, `it did not create a context within ${limit} ms`);
        reject(
          new BrowserFailure(
            "browser_crashed",
            "the browser stopped answering; it is restarted for the next call",
          ),
        );
      }, limit);
    });
    const creating = browser.createBrowserContext({
      proxyServer,
      // Chromium would otherwise connect to loopback directly, around the proxy.
      proxyBypassList: ["<-loopback>"],
      downloadBehavior: { policy: "deny" },
    });
    try {
      return await Promise.race([creating, stuck]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Launches the browser if none runs; the cold start is what `npm run bench:browser` reports. */
  running(): Promise<Browser> {
    if (this.browser === undefined) {
      const launching = this.launch();
      this.browser = launching;
      launching.then(
        (browser) => {
          this.current = browser;
          browser.on("disconnected", () => this.forget(browser, "it crashed or was closed"));
        },
        () => {
          if (this.browser === launching) this.browser = undefined;
        },
      );
    }
    return this.browser;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watch);
    this.dropSpare();
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    if (browser === undefined) return;
    // Nothing in a throwaway profile is worth a graceful shutdown (puppeteer's waits up to 5 s).
    killGroup(browser);
    await Promise.race([
      this.removals.get(browser),
      new Promise((resolve) => setTimeout(resolve, 3_000).unref()),
    ]);
  }

  private async launch(): Promise<Browser> {
    const chromium = await locateChromium(this.options.executable);
    const home = await prepareHome(chromium);
    // Loaded on first use: importing puppeteer costs the service's start-up about a second otherwise.
    const { default: puppeteer } = await import("puppeteer-core");
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath: home.executable,
        userDataDir: home.profile,
        env: { ...process.env, HOME: home.profile, TMPDIR: home.tmp },
        headless: "shell",
        pipe: true,
        timeout: LAUNCH_TIMEOUT_MS,
        protocolTimeout: 30_000,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        args: [...CHROMIUM_ARGS, `--js-flags=--max-old-space-size=${this.options.pageHeapMb ?? 256}`],
      });
    } catch (error) {
      await rm(home.root, { recursive: true, force: true });
      throw error;
    }
    // The profile and the shared-memory files a killed Chromium leaves behind go with its process.
    browser
      .process()
      ?.once("exit", () => void rm(home.root, { recursive: true, force: true }).catch(() => {}));
    this.stats.launches += 1;
    clearInterval(this.watch);
    this.watch = setInterval(() => void this.checkMemory(browser), WATCH_INTERVAL_MS);
    this.watch.unref();
    return browser;
  }

  /** Why `browser` is no longer usable (killed, crashed), or undefined while it is the live one. */
  private lostReason(browser: Browser): string | undefined {
    if (this.current === browser && browser.connected) return undefined;
    return this.lost.get(browser) ?? "it disconnected";
  }

  private forget(browser: Browser, reason: string): void {
    if (!this.lost.has(browser)) this.lost.set(browser, reason);
    if (this.spare?.browser === browser) this.dropSpare();
    if (this.current !== browser) return;
    this.current = undefined;
    this.browser = undefined;
  }

  private kill(browser: Browser, reason: string): void {
    this.stats.kills += 1;
    this.forget(browser, reason);
    killGroup(browser);
  }

  private async checkMemory(browser: Browser): Promise<void> {
    const pid = browser.process()?.pid;
    if (pid === undefined || !browser.connected) return;
    const ceiling = (this.options.memoryCeilingMb ?? 2048) * 1024 * 1024;
    const rss = await groupRss(pid);
    if (rss > ceiling && browser.connected)
      this.kill(
        browser,
        `its processes held ${Math.round(rss / 1048576)} MB, above the ${ceiling / 1048576} MB ceiling`,
      );
  }

  private async slot(signal: AbortSignal | undefined): Promise<void> {
    if (this.active < this.maxSessions) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const ready = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        this.waiting.splice(this.waiting.indexOf(ready), 1);
        reject(new BrowserFailure("timeout", "the call ended while waiting for a browser slot"));
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.waiting.push(ready);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}

/** Where a browser keeps its profile and temporary files, and what to execute. */
interface BrowserHome {
  root: string;
  profile: string;
  tmp: string;
  executable: string;
}

/** nobody/nogroup on Debian: the user Chromium runs as when the service runs as root. */
const UNPRIVILEGED = 65534;
const SETPRIV = "/usr/bin/setpriv";

/**
 * A fresh folder per launch for Chromium's profile and temporary files. When the service runs as root,
 * Chromium is started through a wrapper that drops to nobody (setpriv, no new privileges): with
 * --no-sandbox, a renderer exploit then lands in an unprivileged process. The wrapper sits in a
 * root-owned folder, so the unprivileged browser cannot replace what root runs at the next launch.
 */
async function prepareHome(chromium: string): Promise<BrowserHome> {
  const root = await mkdtemp(join(tmpdir(), "switchboard-browser-"));
  const profile = join(root, "profile");
  const tmp = join(root, "tmp");
  await mkdir(profile);
  await mkdir(tmp);
  const dropping =
    process.getuid?.() === 0 &&
    (await access(SETPRIV, constants.X_OK).then(
      () => true,
      () => false,
    ));
  if (!dropping) return { root, profile, tmp, executable: chromium };
  await chmod(root, 0o755);
  await chown(profile, UNPRIVILEGED, UNPRIVILEGED);
  await chown(tmp, UNPRIVILEGED, UNPRIVILEGED);
  const executable = join(root, "chromium");
  const quoted = `'${chromium.replaceAll("'", `'\\''`)}'`;
  await writeFile(
    executable,
    `#!/bin/sh\nexec ${SETPRIV} --reuid=${UNPRIVILEGED} --regid=${UNPRIVILEGED} --clear-groups --no-new-privs -- ${quoted} "$@"\n`,
    { mode: 0o755 },
  );
  return { root, profile, tmp, executable };
}

/** SIGKILL to the browser's process group: its renderers and helpers go with it. */
function killGroup(browser: Browser): void {
  const child = browser.process();
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** Resident memory of every process in the group `pgid`, from /proc (Linux); 0 elsewhere. */
async function groupRss(pgid: number): Promise<number> {
  let total = 0;
  const entries = await readdir("/proc").catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (pid) => {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
        // Fields after the parenthesised command: state ppid pgrp ...; rss is field 24 (in pages).
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) !== pgid) return;
        total += Number(fields[21]) * 4096;
      }),
  );
  return total;
}
