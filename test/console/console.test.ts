// The maintainer console in a real browser against the real service: sign-in, finding a tool, routing a
// query and reading its candidates and threshold, route-and-execute's steps, an evaluation, and a breaker
// opened by a failing tool (a stand-in provider built here, answering 503) seen on Operations. axe-core
// checks every page; each page's screenshot is written to a temporary folder, or, with
// SWITCHBOARD_SCREENSHOTS=docs/console, to the README's pictures (a plain `npm test` leaves the tree clean).
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "puppeteer-core";
import { type ChatStandIn, startChatStandIn } from "../fixtures/chat-stand-in.ts";
import { call, ROOT, type Service, startService, tempDir } from "../server/harness.ts";
import { launchBrowser, seriousViolations, WAIT } from "./browser.ts";

// The page's globals, for the functions puppeteer runs in the browser (the tests compile without the DOM
// library).
// biome-ignore lint/suspicious/noExplicitAny: typed by the browser, not by this program
declare const document: any, window: any;
// biome-ignore lint/suspicious/noExplicitAny: as above
declare function getComputedStyle(element: unknown): any;

const MAINTAINER = "console-maintainer-key";
const AGENT = "console-agent-key";
const OTHER_AGENT = "console-other-agent-key";
/** A request in made-up words, so that no bundled tool matches it and the agent's call synthesizes one. */
const UNMET_REQUEST = "snorfle the blapper";
const SYNTHESIZED = "snorfle_blapper";
let SHOTS: string;
const WIDE = { width: 1280, height: 800 };

let llm: ChatStandIn;
let failing: Server;
let failingUrl: string;
let service: Service;
let browser: Browser;
let page: Page;
/** Every URL the console's page asked for: all must be the service's own. */
const requested: string[] = [];

before(async () => {
  SHOTS = process.env.SWITCHBOARD_SCREENSHOTS
    ? resolve(ROOT, process.env.SWITCHBOARD_SCREENSHOTS)
    : await tempDir("console-shots");
  // A provider that is down: every call gets 503, a fault the breaker counts.
  failing = createServer((_request, response) => {
    response.writeHead(503, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "the stand-in provider is down" }));
  });
  await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  // The LLM stand-in writes a tool named after the request's longer words.
  llm = await startChatStandIn((body) => {
    const request =
      /intent: (.*)$/m.exec(body.messages.find((m) => m.role === "user")?.content ?? "")?.[1] ?? "";
    const name = request
      .split(" ")
      .filter((word) => word.length > 3)
      .join("_");
    return JSON.stringify({
      name,
      description: `Does what "${request}" asks.`,
      inputSchema: { type: "object", properties: { amount: { type: "number" } } },
      code: `async function ${name}(args) { return { made: "${name}", amount: args.amount ?? 0 }; }`,
    });
  });
  service = await startService({
    env: {
      SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
      SWITCHBOARD_AGENT_KEYS: `${AGENT},${OTHER_AGENT}`,
      SWITCHBOARD_LLM_BASE_URL: llm.baseUrl,
      SWITCHBOARD_LLM_MODEL: "stand-in",
      SWITCHBOARD_EGRESS_ALLOW: "127.0.0.1",
    },
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  // Instant scrolling, so a screenshot shows the section scrolled to.
  await page.emulateMediaFeatures([{ name: "prefers-reduced-motion", value: "reduce" }]);
  await page.setViewport(WIDE);
  page.on("request", (request) => {
    requested.push(request.url());
  });
});

after(async () => {
  await browser?.close();
  await service?.stop();
  await new Promise((resolve) => failing?.close(resolve));
  await llm?.close();
  if (!process.env.SWITCHBOARD_SCREENSHOTS) await rm(SHOTS, { recursive: true, force: true });
});

async function assertAccessible(what: string): Promise<void> {
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 2)}`);
}

/** What a maintainer sees at 1280×800 with the section scrolled to the top (below the sticky header). */
async function shoot(section: string): Promise<void> {
  await page.waitForSelector(`#${section}`, WAIT);
  await page.$eval(`#${section}`, (element) => element.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: join(SHOTS, `${section}.png`) });
}

/** The text of the first element matching `selector`, once it matches `pattern` (polled in the page). */
async function waitText(selector: string, pattern: RegExp): Promise<string> {
  try {
    await page.waitForFunction(
      (css: string, source: string, flags: string) =>
        new RegExp(source, flags).test(document.querySelector(css)?.textContent ?? ""),
      WAIT,
      selector,
      pattern.source,
      pattern.flags,
    );
  } catch (error) {
    const text = await page.$eval(selector, (element) => element.textContent ?? "").catch(() => "(none)");
    throw new Error(`${selector} never matched ${pattern}; its text: ${text}`, { cause: error });
  }
  return page.$eval(selector, (element) => element.textContent ?? "");
}

test("sign-in: a wrong key and an agent key are refused, a maintainer key opens the five sections", async () => {
  await page.goto(`${service.url}/console`, { waitUntil: "load" });
  await page.waitForSelector("::-p-aria(Maintainer key)", WAIT);
  await assertAccessible("sign-in");
  await page.screenshot({ path: join(SHOTS, "sign-in.png") });

  await page.type("::-p-aria(Maintainer key)", "not-a-key");
  await page.click('::-p-aria([name="Sign in"][role="button"])');
  await waitText("[role=alert]", /unknown API key/);

  await page.type("::-p-aria(Maintainer key)", AGENT);
  await page.click('::-p-aria([name="Sign in"][role="button"])');
  await waitText("[role=alert]", /agent role/);

  await page.type("::-p-aria(Maintainer key)", MAINTAINER);
  await page.click('::-p-aria([name="Sign in"][role="button"])');
  await page.waitForSelector("::-p-aria(Query)", WAIT);
  for (const name of ["Catalog", "Route", "Evaluate", "Review", "Operations"]) {
    const region = await page.$(`::-p-aria([name="${name}"][role="region"])`);
    assert.ok(region, `a region landmark named ${name}`);
    const heading = await page.$(`::-p-aria([name="${name}"][role="heading"])`);
    assert.ok(heading, `a heading named ${name}`);
  }
  // Kept for the tab only: in sessionStorage, not in localStorage or a cookie.
  const stored = await page.evaluate(() => ({
    session: Object.values(sessionStorage),
    local: Object.values(localStorage),
    cookie: document.cookie,
  }));
  assert.deepEqual(stored, { session: [MAINTAINER], local: [], cookie: "" });
  await assertAccessible("signed in");
});

test("the page and its assets come from the service alone, under a strict content security policy", async () => {
  const origin = new URL(service.url).origin;
  assert.ok(requested.length > 0);
  assert.deepEqual(
    requested.filter((url) => new URL(url).origin !== origin),
    [],
  );
  const page = await fetch(`${service.url}/console`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  const html = await page.text();
  const script = /src="([^"]+\.js)"/.exec(html)?.[1];
  assert.ok(script, html);
  const asset = await fetch(`${service.url}${script}`, { headers: { "accept-encoding": "gzip" } });
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get("cache-control") ?? "", /immutable/);
  const missing = await fetch(`${service.url}/console/assets/..%2Fpackage.json`);
  assert.equal(missing.status, 404);
});

test("Catalog: search finds a tool and shows its schemas, binding and policy", async () => {
  await page.click("::-p-aria(Search tools)");
  await page.type("::-p-aria(Search tools)", "exchange rates");
  await page.waitForSelector('::-p-aria([name="get_exchange_rates"][role="button"])', WAIT);
  const shown = await page.$$eval("#catalog .tool-button", (buttons) => buttons.map((b) => b.textContent));
  assert.ok(shown.includes("get_exchange_rates"), String(shown));
  assert.ok(shown.length < 74, `the search narrowed the list (${shown.length})`);
  await page.click('::-p-aria([name="get_exchange_rates"][role="button"])');
  await page.waitForSelector("::-p-aria(Binding of get_exchange_rates)", WAIT);
  const binding = await waitText("[aria-label='Binding of get_exchange_rates']", /"type"/);
  assert.match(binding, /"http"|"sandbox"/);
  const schema = await page.$eval("[aria-label='Input schema of get_exchange_rates']", (e) => e.textContent);
  assert.match(schema ?? "", /"properties"/);
  await assertAccessible("catalog");
  await shoot("catalog");
});

test("Route: the candidates, their scores and the threshold are the API's own", async () => {
  const query = "convert 10 USD to EUR";
  await page.click("::-p-aria(Query)");
  await page.type("::-p-aria(Query)", query);
  await page.click('::-p-aria([name="Route"][role="button"])');
  await page.waitForSelector("ol[aria-label=Candidates] > li", WAIT);
  const shown = await page.$$eval("ol[aria-label=Candidates] > li", (items) =>
    items.map((item) => ({
      name: item.getAttribute("data-tool"),
      score: Number(item.getAttribute("data-score")),
    })),
  );
  const threshold = Number(await page.$eval("[data-threshold]", (e) => e.getAttribute("data-threshold")));
  const api = await call(service, "POST", "/v1/route", { key: MAINTAINER, body: { query, topK: 5 } });
  assert.equal(api.status, 200);
  assert.deepEqual(
    shown.map((c) => c.name),
    api.body.tools.map((t: { name: string }) => t.name),
  );
  assert.equal(threshold, api.body.threshold);
  // The threshold is drawn as a line in every candidate's bar, at the same place.
  const lines = await page.$$eval("ol[aria-label=Candidates] .threshold-line", (all) =>
    all.map((line) => Math.round(line.getBoundingClientRect().left)),
  );
  assert.equal(lines.length, shown.length);
  assert.equal(new Set(lines).size, 1, `one line across the bars: ${lines}`);
  const parts = await page.$eval(
    "ol[aria-label=Candidates] > li .candidate-parts",
    (e) => e.textContent ?? "",
  );
  assert.match(parts, /dense .* lexical .* subword/);

  const first = shown[0]?.name ?? "";
  await page.click(`::-p-aria(Confirm ${first} as the right tool)`);
  const status = await waitText("#route [role=status]", /^Feedback for/);
  assert.match(status, /1 learned/);
  await assertAccessible("route");
});

test("Route: route-and-execute shows its steps, the arguments with their spans, and the execution", async () => {
  const input = await page.$("::-p-aria(Query)");
  await input?.click({ count: 3 });
  await input?.type("what is 15% of 80");
  await page.click("::-p-aria(Route and execute)");
  await page.waitForSelector("ol[aria-label=Steps] > li[data-step=execute]", WAIT);
  const steps = await page.$$eval("ol[aria-label=Steps] > li", (items) =>
    items.map((i) => i.getAttribute("data-step")),
  );
  assert.deepEqual(steps, ["route", "arguments", "validate", "execute"]);
  const status = await page.$eval("[data-status]", (e) => e.getAttribute("data-status"));
  assert.equal(status, "completed");
  const marks = await page.$$eval(".marked-query mark", (all) => all.map((m) => m.firstChild?.textContent));
  assert.ok(marks.some((m) => m?.startsWith("15")) && marks.includes("80"), `spans marked: ${marks}`);
  const output = await page.$eval("li[data-step=execute] pre", (e) => e.textContent ?? "");
  assert.match(output, /12/);
  await assertAccessible("route and execute");
  await shoot("route");
});

test("Evaluate: the catalog's labelled set gives hit@1, recall@5, AUROC, a plot with the threshold and confused pairs", async () => {
  await page.click("::-p-aria(Run evaluation)");
  await waitText("#evaluate [role=status]", /^Evaluated/);
  const figures = await page.$$eval("#evaluate .figures div", (all) =>
    Object.fromEntries(
      all.map((d) => [d.querySelector("dt")?.textContent, d.querySelector("dd")?.textContent]),
    ),
  );
  for (const name of ["hit@1", "recall@5", "no-tool AUROC"]) {
    const value = Number(figures[name]);
    assert.ok(value > 0 && value <= 1, `${name} = ${figures[name]}`);
  }
  assert.ok(await page.$("#evaluate .plot canvas"), "a uPlot canvas");
  const caption = await page.$eval("#evaluate figcaption", (e) => e.textContent ?? "");
  assert.match(caption, /threshold τ = \d\.\d{3}/);
  assert.ok(await page.$("#evaluate table.confused"));
  await assertAccessible("evaluate");
  await shoot("evaluate");
});

test("Evaluate: an uploaded labelled file is evaluated; a bad one is refused naming its line", async () => {
  const folder = await tempDir("console-eval");
  const { writeFile } = await import("node:fs/promises");
  const good = join(folder, "good.jsonl");
  await writeFile(
    good,
    [
      { query: "what is 15% of 80", tools: ["percentage"] },
      { query: "convert 10 USD to EUR", tools: ["convert_currency"] },
      { query: "tell me a joke about cats", tools: [] },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  );
  const bad = join(folder, "bad.jsonl");
  await writeFile(bad, `${JSON.stringify({ query: "fine", tools: [] })}\n{not json\n`);
  const file = await page.$("#eval-file");
  await file?.uploadFile(bad);
  await waitText("#evaluate [role=status]", /line 2 is not valid JSON/);
  await file?.uploadFile(good);
  await waitText("#evaluate [role=status]", /3 labelled queries/);
  await page.click("::-p-aria(Run evaluation)");
  await waitText("#evaluate [role=status]", /^Evaluated 3 queries\.$/);
});

const routedFor = async (key: string, query: string): Promise<string[]> => {
  const answer = await call(service, "POST", "/v1/route", { key, body: { query, topK: 50, threshold: 0 } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.tools.map((tool: { name: string }) => tool.name);
};

test("Review: an agent's synthesized tool waits with its code, request and key; promoted, it is routed for another key", async () => {
  const made = await call(service, "POST", "/v1/route-and-execute", {
    key: AGENT,
    body: { query: UNMET_REQUEST },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.ok(
    made.body.steps.some((step: { step: string; ok?: boolean }) => step.step === "synthesize" && step.ok),
    JSON.stringify(made.body.steps),
  );
  assert.ok(
    !(await routedFor(OTHER_AGENT, UNMET_REQUEST)).includes(SYNTHESIZED),
    "pending: the owner's alone",
  );

  // Review lists it on its next refresh.
  const item = `#review li.pending-tool[data-tool=${SYNTHESIZED}]`;
  await page.waitForSelector(item, WAIT);
  const owner = (await call(service, "GET", "/v1/whoami", { key: AGENT })).body.id;
  assert.equal(await page.$eval(`${item} .owner`, (e) => e.textContent), owner);
  assert.equal(await page.$eval(`${item} .request`, (e) => e.textContent), UNMET_REQUEST);
  // The code is fetched after the item is listed, then highlighted.
  await page.waitForSelector(`${item} .hljs-keyword`, WAIT);
  await assertAccessible("review");
  await shoot("review");

  await page.click(`::-p-aria(Promote ${SYNTHESIZED})`);
  await waitText("#review .review-log", new RegExp(`promoted ${SYNTHESIZED}`));
  await page.waitForFunction((css: string) => !document.querySelector(css), WAIT, item);
  assert.ok(
    (await routedFor(OTHER_AGENT, UNMET_REQUEST)).includes(SYNTHESIZED),
    "published: routed for every key",
  );
});

test("Operations: a failing tool opens its breaker, seen with its time in state; executions filter by tool and status", async () => {
  const tool = {
    name: "flaky_lookup",
    description: "Looks a record up at a stand-in provider that is down.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true },
    binding: { type: "http", method: "GET", url: `${failingUrl}/lookup` },
    policy: {
      retry: { retries: 0 },
      breaker: { failureRate: 0.5, minCalls: 2, windowSize: 4, cooldownMs: 600_000 },
    },
  };
  const put = await call(service, "PUT", "/v1/tools/flaky_lookup", { key: MAINTAINER, body: tool });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  for (let i = 0; i < 3; i++) {
    const run = await call(service, "POST", "/v1/execute", {
      key: AGENT,
      body: { calls: [{ id: `flaky-${i}`, name: "flaky_lookup", arguments: {} }] },
    });
    assert.equal(run.status, 200);
    assert.equal(run.body.results[0].status, "failed");
  }
  const breakers = await call(service, "GET", "/v1/breakers", { key: MAINTAINER });
  assert.ok(
    breakers.body.breakers.some(
      (b: { tool: string; state: string }) => b.tool === "flaky_lookup" && b.state === "open",
    ),
    JSON.stringify(breakers.body),
  );
  // Operations refreshes itself every few seconds; the row appears without a reload.
  await page.waitForSelector("#operations tr[data-tool=flaky_lookup][data-state=open]", WAIT);
  const since = await page.$eval(
    "#operations tr[data-tool=flaky_lookup] td:nth-child(4)",
    (e) => e.textContent ?? "",
  );
  assert.match(since, /\d+(\.\d)? (ms|s|min)/);

  await page.select("#filter-tool", "flaky_lookup");
  await page.select("#filter-status", "failed");
  await page.waitForSelector("#operations tr[data-tool=flaky_lookup][data-status=failed]", WAIT);
  const rows = await page.$$eval("table[aria-label='Recent executions'] tbody tr", (all) =>
    all.map((row) => `${row.getAttribute("data-tool")} ${row.getAttribute("data-status")}`),
  );
  assert.ok(rows.length >= 3, String(rows));
  assert.deepEqual(new Set(rows), new Set(["flaky_lookup failed"]));
  const agent = await call(service, "GET", "/v1/whoami", { key: AGENT });
  await page.select("#filter-key", agent.body.id);
  await page.waitForFunction(
    () => document.querySelectorAll("table[aria-label='Recent executions'] tbody tr").length >= 3,
    WAIT,
  );
  // Routing latency comes from the service's own histogram.
  await waitText("#operations table caption + thead + tbody", /^all\d+/);
  await assertAccessible("operations");
  await shoot("operations");
});

test("keyboard: the skip link comes first and focus is visible; a narrow window has no sideways scroll", async () => {
  // A reload keeps the tab's sign-in and starts focus at the top of the page.
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector("::-p-aria(Query)", WAIT);
  await page.keyboard.press("Tab");
  const first = await page.evaluate(() => ({
    text: document.activeElement?.textContent,
    outline: getComputedStyle(document.activeElement).outlineStyle,
  }));
  assert.equal(first.text, "Skip to content");
  assert.notEqual(first.outline, "none");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => ({
    tag: document.activeElement?.tagName,
    outline: getComputedStyle(document.activeElement).outlineStyle,
  }));
  assert.notEqual(focused.outline, "none", JSON.stringify(focused));

  await page.setViewport({ width: 390, height: 844 });
  await page
    .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, WAIT)
    .catch(async (error) => {
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 5)
          .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
      );
      throw new Error(`wider than the window: ${wide.join(", ")}`, { cause: error });
    });
  await assertAccessible("narrow");
  await page.screenshot({ path: join(SHOTS, "narrow.png") });
  await page.setViewport(WIDE);
});
