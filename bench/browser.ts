// npm run bench:browser — one run, JSON on stdout.
//
// coldStart:   launching Chromium (the binary already unpacked) until it answers CDP, in ms, several
//              launches each in a fresh supervisor.
// warmContext: one call's browser on a running Chromium: a fresh incognito context and its proxy (the
//              one prepared ahead while the previous call ran, when ready), a small static page opened,
//              the context closed: what a call pays besides its own work. Calls run back to back.
// spaExtract:  a sandboxed tool end to end on the stand-in SPA (test/fixtures/browser-sites.ts): open,
//              wait for the items its script renders after its API call, extract them, close.
import { BrowserSupervisor, locateChromium } from "../src/browser/index.ts";
import type { BrowserGrant } from "../src/catalog/index.ts";
import { createEgressPolicy } from "../src/egress/index.ts";
import { Sandbox } from "../src/synth/index.ts";
import { startSites } from "../test/fixtures/browser-sites.ts";

const COLD_RUNS = 5;
const WARM_RUNS = 40;
const EXTRACT_RUNS = 40;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const unpackMs = await time(() => locateChromium());
const sites = await startSites();
const egress = createEgressPolicy({ allow: ["127.0.0.1"] });
const grant: BrowserGrant = {
  allow: [`${sites.origin}/`],
  timeoutMs: 10_000,
  maxPages: 5,
  maxBytes: 5_000_000,
  maxContentChars: 1_000_000,
  maxScreenshotBytes: 1_000_000,
};

const cold: number[] = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const supervisor = new BrowserSupervisor({ egress });
  cold.push(await time(() => supervisor.running()));
  await supervisor.close();
}

const supervisor = new BrowserSupervisor({ egress });
await supervisor.running();
const warm: number[] = [];
for (let i = 0; i < WARM_RUNS + 5; i++) {
  const ms = await time(async () => {
    const session = await supervisor.session(grant);
    await session.perform(JSON.stringify({ op: "open", url: `${sites.origin}/item/1` }));
    await session.close();
  });
  if (i >= 5) warm.push(ms);
}

const sandbox = new Sandbox({ browser: supervisor, defaultTimeoutMs: 20_000 });
const code = `async function spa(args, ctx) {
  await ctx.browser.open(args.url);
  await ctx.browser.waitFor("#stories > li.story");
  return await ctx.browser.extract("#stories > li.story a", { attrs: ["href"], limit: 5 });
}`;
const extract: number[] = [];
for (let i = 0; i < EXTRACT_RUNS + 5; i++) {
  const ms = await time(() =>
    sandbox.run({
      name: "spa",
      code,
      args: { url: `${sites.origin}/spa` },
      capabilities: { browser: grant },
    }),
  );
  if (i >= 5) extract.push(ms);
}
sandbox.close();
await supervisor.close();
await sites.close();

process.stdout.write(
  `${JSON.stringify(
    {
      unpackOrLocateMs: Math.round(unpackMs),
      coldStartMs: stats(cold),
      warmContextPerCallMs: stats(warm),
      spaExtractToolCallMs: stats(extract),
    },
    null,
    2,
  )}\n`,
);
