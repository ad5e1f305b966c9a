// The inspector: is a page's content in the HTML its server sends (static: ctx.fetch and ctx.html will do)
// or only in the DOM its scripts build (dynamic: the tool needs ctx.browser)? One browser load gives both
// views (the document's response body and the rendered DOM); both are analysed host-side with cheerio, so
// no inspector code runs in the page.
import { createRequire } from "node:module";
import type { CheerioAPI } from "cheerio";
import { z } from "zod";
import type { BrowserGrant } from "../catalog/index.ts";
import type { BlockedRequest } from "./operations.ts";
import { BrowserFailure } from "./operations.ts";
import type { PageSnapshot } from "./session.ts";
import type { BrowserSupervisor } from "./supervisor.ts";

// cheerio is loaded by the first inspection, which only `switchboard inspect` and synthesis make.
const require = createRequire(import.meta.url);
const load = (html: string) => (require("cheerio") as typeof import("cheerio")).load(html);

export const inspectRequestSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).meta({ description: "The page to inspect" }),
  timeoutMs: z.number().int().positive().max(60_000).default(15_000),
});
export type InspectRequest = z.input<typeof inspectRequestSchema>;

export interface Candidate {
  /** A CSS selector matching the repeated items. */
  selector: string;
  count: number;
  /** Whether the server's HTML already holds these items. */
  inStatic: boolean;
  sample: { text: string; attrs: Record<string, string> }[];
}

export interface InspectReport {
  url: string;
  status: number | null;
  title: string;
  verdict: "static" | "dynamic";
  reasons: string[];
  static: { textLength: number };
  rendered: { textLength: number };
  frameworks: string[];
  candidates: Candidate[];
  blocked: BlockedRequest[];
}

/** The parts of a parsed element (domhandler's, through cheerio) the analysis reads. */
interface Element {
  type: string;
  tagName: string;
  attribs: Record<string, string>;
  parent: Element | null;
}

const FRAMEWORK_MARKERS: [string, RegExp][] = [
  ["next.js", /__NEXT_DATA__|\/_next\//],
  ["nuxt", /__NUXT__|\/_nuxt\//],
  ["react", /data-reactroot|__REACT_DEVTOOLS|react(-dom)?(\.production)?(\.min)?\.js/i],
  ["angular", /ng-version=|ng-app|<app-root/],
  ["vue", /data-v-[0-9a-f]{6,}|vue(\.runtime)?(\.global)?(\.prod)?(\.min)?\.js|\bv-cloak\b/i],
  ["svelte", /class="[^"]*svelte-[a-z0-9]+/],
  ["empty mount point", /<div id="(root|app|__next|__nuxt)"[^>]*>\s*<\/div>/],
];

const MAX_CANDIDATES = 5;
const SAMPLE_SIZE = 3;
const MIN_REPEATS = 3;

function textOf($: CheerioAPI): string {
  $("script, style, noscript, template").remove();
  return $("body").text().replace(/\s+/g, " ").trim();
}

function signature(element: Element): string {
  const firstClass = (element.attribs.class ?? "").trim().split(/\s+/)[0];
  return firstClass ? `${element.tagName}.${cssEscape(firstClass)}` : element.tagName;
}

function cssEscape(identifier: string): string {
  return identifier.replace(/[^A-Za-z0-9_-]/g, (char) => `\\${char}`);
}

/** A short selector for an element: its id, else its tag and first class under its parent's. */
function selectorOf(element: Element, depth = 0): string {
  if (element.attribs.id && /^[A-Za-z][\w-]*$/.test(element.attribs.id)) return `#${element.attribs.id}`;
  const own = signature(element);
  const parent = element.parent;
  if (depth >= 2 || parent === null || parent.type !== "tag" || parent.tagName === "body") return own;
  return `${selectorOf(parent, depth + 1)} > ${own}`;
}

function sampleOf($: CheerioAPI, element: Element) {
  const attribs = element.attribs ?? {};
  const attrs: Record<string, string> = {};
  for (const name of ["href", "src", "id", "class"])
    if (attribs[name] !== undefined) attrs[name] = attribs[name];
  const link = $(element as never)
    .find("a[href]")
    .first()
    .attr("href");
  if (attrs.href === undefined && link !== undefined) attrs.href = link;
  return {
    text: $(element as never)
      .text()
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 200),
    attrs,
  };
}

/** Groups of at least MIN_REPEATS siblings with one tag and class and some text: the page's lists. */
export function repeatedItems(rendered: string, staticHtml: string): Candidate[] {
  const $ = load(rendered);
  $("script, style, noscript, template, head").remove();
  const $static = load(staticHtml);
  const staticText = textOf(load(staticHtml));
  const found = new Map<string, { selector: string; count: number; score: number; elements: Element[] }>();
  $("body *").each((_, node) => {
    const parent = node as unknown as Element;
    const groups = new Map<string, Element[]>();
    for (const child of $(node).children().toArray() as unknown as Element[]) {
      const key = signature(child);
      groups.set(key, [...(groups.get(key) ?? []), child]);
    }
    for (const [key, elements] of groups) {
      if (elements.length < MIN_REPEATS) continue;
      const texts = elements.map((element) =>
        $(element as never)
          .text()
          .trim(),
      );
      const filled = texts.filter((text) => text.length > 0).length;
      if (filled < MIN_REPEATS) continue;
      const selector = `${selectorOf(parent)} > ${key}`;
      const averageText = texts.reduce((sum, text) => sum + Math.min(text.length, 200), 0) / texts.length;
      if (!found.has(selector))
        found.set(selector, {
          selector,
          count: $(selector).length,
          score: filled * Math.log2(2 + averageText),
          elements,
        });
    }
  });
  return [...found.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_CANDIDATES)
    .map(({ selector, count, elements }) => {
      const sample = elements.slice(0, SAMPLE_SIZE).map((element) => sampleOf($, element));
      const inStatic =
        $static(selector).length >= MIN_REPEATS || sample.every((item) => staticText.includes(item.text));
      return { selector, count, inStatic, sample };
    });
}

/** The report for one snapshot: the verdict and its reasons, lists found, framework markers. */
export function analyse(snapshot: PageSnapshot): InspectReport {
  const staticText = textOf(load(snapshot.raw));
  const renderedText = textOf(load(snapshot.rendered));
  const candidates = repeatedItems(snapshot.rendered, snapshot.raw);
  const frameworks = FRAMEWORK_MARKERS.filter(
    ([, marker]) => marker.test(snapshot.raw) || marker.test(snapshot.rendered),
  ).map(([name]) => name);
  const reasons: string[] = [];
  if (renderedText.length > staticText.length * 1.5 + 100)
    reasons.push(
      `the rendered page has ${renderedText.length} characters of text, the server's HTML ${staticText.length}`,
    );
  const top = candidates[0];
  if (top !== undefined && !top.inStatic)
    reasons.push(`the repeated items at ${top.selector} are not in the server's HTML`);
  if (frameworks.includes("empty mount point"))
    reasons.push("the server's HTML has an empty mount point for a script");
  const verdict = reasons.length > 0 ? "dynamic" : "static";
  if (verdict === "static")
    reasons.push(
      "the server's HTML already holds the rendered text and lists: ctx.fetch with ctx.html suffices",
    );
  return {
    url: snapshot.url,
    status: snapshot.status,
    title: snapshot.title,
    verdict,
    reasons,
    static: { textLength: staticText.length },
    rendered: { textLength: renderedText.length },
    frameworks,
    candidates,
    blocked: snapshot.blocked,
  };
}

/** Loads `url` in a fresh context whose allowlist is the URL's origin, and reports. */
export async function inspectPage(
  browser: BrowserSupervisor,
  request: InspectRequest,
): Promise<InspectReport> {
  const parsed = inspectRequestSchema.safeParse(request);
  if (!parsed.success)
    throw new BrowserFailure(
      "invalid",
      `inspect: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const { url, timeoutMs } = parsed.data;
  const grant: BrowserGrant = {
    allow: [`${new URL(url).origin}/`],
    timeoutMs,
    maxPages: 1,
    maxBytes: 20_000_000,
    maxContentChars: 5_000_000,
    maxScreenshotBytes: 1,
  };
  const session = await browser.session(grant);
  try {
    return analyse(await session.snapshot(url, Math.min(3_000, timeoutMs)));
  } finally {
    await session.close();
  }
}
