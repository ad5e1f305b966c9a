// The browser through the composition root: a tool written by an LLM (a stand-in chat-completions server
// built here, on loopback) for an intent that names a dynamic page; the LLM is given the page's inspection
// report, and the registered tool extracts the page's items. A Switchboard without Chromium refuses to
// register a tool that asks for the browser, saying how to install it.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { AppError, configFrom, openSwitchboard, type Switchboard } from "../../src/app/index.ts";
import { createLogger, readEnv } from "../../src/config/index.ts";
import { type Sites, startSites } from "../fixtures/browser-sites.ts";
import { type ChatStandIn, startChatStandIn } from "../fixtures/chat-stand-in.ts";
import { fixtureTools } from "../server/fixture-tools.ts";
import { tempDir, writeCatalog } from "../server/harness.ts";

let sites: Sites;
let llm: ChatStandIn;
let app: Switchboard;
const prompts: string[] = [];

const TOOL_CODE = `async function spa_top_stories(args, ctx) {
  await ctx.browser.open(args.url);
  await ctx.browser.waitFor("#stories > li.story");
  const items = await ctx.browser.extract("#stories > li.story a", { attrs: ["href"], limit: args.limit });
  return { stories: items.map((item) => ({ title: item.text, href: item.attrs.href })) };
}`;

before(async () => {
  sites = await startSites();
  llm = await startChatStandIn(({ messages }) => {
    prompts.push(messages.map((m) => m.content).join("\n"));
    const proposal = {
      name: "spa_top_stories",
      description: "The top stories of the stand-in news app, rendered by its script.",
      inputSchema: {
        type: "object",
        properties: { url: { type: "string" }, limit: { type: "integer" } },
        required: ["url", "limit"],
      },
      code: TOOL_CODE,
    };
    return JSON.stringify(proposal);
  });
  const catalog = await writeCatalog(fixtureTools("http://127.0.0.1:9"));
  const env = readEnv({
    SWITCHBOARD_EGRESS_ALLOW: "127.0.0.1",
    SWITCHBOARD_LLM_BASE_URL: llm.baseUrl,
    SWITCHBOARD_LLM_MODEL: "stand-in",
  });
  app = await openSwitchboard(configFrom(env, { catalog, data: await tempDir("browser-app") }), {
    logger: createLogger("silent"),
    index: false,
  });
});

after(async () => {
  await app?.close();
  llm?.close();
  await sites?.close();
});

it("gives the LLM the inspection of the page an intent names, and the tool it writes extracts the page", async () => {
  const url = `${sites.origin}/spa`;
  const outcome = await app.synthesize({
    name: "spa_top_stories",
    description: `Return the top stories listed on ${url}`,
    inputSchema: {
      type: "object",
      properties: { url: { type: "string" }, limit: { type: "integer" } },
      required: ["url", "limit"],
    },
    capabilities: { browser: { allow: [`${sites.origin}/`], timeoutMs: 5_000 } },
    testArgs: { url, limit: 3 },
  });
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
  const prompt = prompts[0] ?? "";
  assert.match(prompt, /ctx\.browser is granted/);
  assert.match(prompt, new RegExp(`Inspection of ${url.replaceAll(".", "\\.")}`));
  assert.match(prompt, /"verdict":"dynamic"/);
  assert.match(prompt, /"selector":"#stories > li\.story"/);
  const [result] = await app.execute([{ id: "c1", name: "spa_top_stories", arguments: { url, limit: 2 } }]);
  assert.equal(result?.status, "completed", JSON.stringify(result));
  assert.deepEqual(result?.output, {
    stories: [
      { title: "Alpha ships", href: "/item/0" },
      { title: "Beta rises", href: "/item/1" },
    ],
  });
});

it("answers POST /v1/inspect's work: static for a server-rendered list", async () => {
  const report = await app.inspect({ url: `${sites.origin}/static` });
  assert.equal(report.verdict, "static");
  await assert.rejects(app.inspect({ url: "file:///etc/passwd" }), (error: unknown) => {
    assert.ok(error instanceof AppError && error.code === "invalid", String(error));
    return true;
  });
});

it("refuses to register a browser tool where Chromium is missing, saying how to install it", async () => {
  const catalog = await writeCatalog(fixtureTools("http://127.0.0.1:9"));
  const env = readEnv({ SWITCHBOARD_CHROMIUM: "/nonexistent/chromium" });
  const bare = await openSwitchboard(configFrom(env, { catalog, data: await tempDir("browser-missing") }), {
    logger: createLogger("silent"),
    index: false,
  });
  try {
    await assert.rejects(
      bare.putTool({
        name: "needs_browser",
        description: "Reads a page in the browser.",
        inputSchema: { type: "object" },
        binding: {
          type: "sandbox",
          code: "async function needs_browser(args, ctx) { return 1; }",
          capabilities: { browser: { allow: ["https://example.com/"] } },
        },
      } as never),
      (error: unknown) => {
        assert.ok(error instanceof AppError && error.code === "unavailable", String(error));
        assert.match(error.message, /^Chromium is not available: run `npm ci`/);
        return true;
      },
    );
    assert.equal(bare.getTool("needs_browser"), undefined);
  } finally {
    await bare.close();
  }
});
