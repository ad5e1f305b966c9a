// The browser through the running service: POST /v1/inspect (maintainers only) and a screenshot from a
// browser tool reaching an MCP client as image content, over Streamable HTTP.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Sites, startSites } from "../fixtures/browser-sites.ts";
import { call, type Service, startService, writeCatalog } from "../server/harness.ts";

const AGENT = "browser-agent";
const MAINTAINER = "browser-maintainer";
let sites: Sites;
let service: Service;

before(async () => {
  sites = await startSites();
  const catalog = await writeCatalog([
    {
      name: "page_shot",
      description: "A screenshot of the stand-in site's story list.",
      inputSchema: { type: "object", properties: {} },
      policy: { timeoutMs: 20_000 },
      binding: {
        type: "sandbox",
        code: `async function page_shot(args, ctx) {
          const page = await ctx.browser.open("${sites.origin}/static");
          return { title: page.title, image: await ctx.browser.screenshot({ selector: "#stories" }) };
        }`,
        capabilities: { browser: { allow: [`${sites.origin}/`] } },
      },
    },
  ]);
  service = await startService({
    catalog,
    env: {
      SWITCHBOARD_AGENT_KEYS: AGENT,
      SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
      SWITCHBOARD_EGRESS_ALLOW: "127.0.0.1",
    },
  });
});

after(async () => {
  await service?.stop();
  await sites?.close();
});

test("POST /v1/inspect: maintainers get the report, agents 403, a non-http URL 4xx", async () => {
  const body = { url: `${sites.origin}/spa` };
  const denied = await call(service, "POST", "/v1/inspect", { key: AGENT, body });
  assert.equal(denied.status, 403);
  const answer = await call(service, "POST", "/v1/inspect", { key: MAINTAINER, body });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.verdict, "dynamic");
  assert.equal(answer.body.candidates[0].selector, "#stories > li.story");
  const bad = await call(service, "POST", "/v1/inspect", {
    key: MAINTAINER,
    body: { url: "file:///etc/passwd" },
  });
  assert.ok(bad.status >= 400 && bad.status < 500, String(bad.status));
  assert.equal(typeof bad.body.error.message, "string");
});

test("MCP call_tool: a screenshot in a tool's output reaches the client as image content", async () => {
  const client = new Client({ name: "test-browser", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${AGENT}` } },
    }),
  );
  try {
    const result = await client.callTool({
      name: "call_tool",
      arguments: { name: "page_shot", arguments: {} },
    });
    const content = result.content as { type: string; text?: string; data?: string; mimeType?: string }[];
    assert.equal(result.isError, undefined, JSON.stringify(content[0]));
    assert.equal(content.length, 2);
    assert.equal(content[1]?.type, "image");
    assert.equal(content[1]?.mimeType, "image/png");
    assert.equal(
      Buffer.from(content[1]?.data ?? "", "base64")
        .subarray(1, 4)
        .toString(),
      "PNG",
    );
    const text = JSON.parse(content[0]?.text ?? "null");
    assert.equal(text.output.title, "stand-in");
    assert.deepEqual(text.output.image, { type: "image", mimeType: "image/png", content: 1 });
  } finally {
    await client.close();
  }
});
