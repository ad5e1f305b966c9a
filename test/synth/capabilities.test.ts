import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Capabilities } from "../../src/catalog/index.ts";
import { createEgressPolicy, isAllowedUrl } from "../../src/egress/index.ts";
import { Sandbox, SandboxError } from "../../src/synth/index.ts";

// A local HTTP server the tools fetch from: pages, redirects (inside and outside the allowlist), a large
// body and a slow answer.
let server: Server;
let base: string;
const seen: { method: string; url: string; body: string; header: string | undefined }[] = [];

before(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        body,
        header: request.headers["x-test"] as string,
      });
      const url = request.url ?? "/";
      if (url === "/api/json") return response.end(JSON.stringify({ hello: "world" }));
      if (url === "/api/page")
        return response.end(
          '<ul><li class="story"><a href="https://a.example/1">First</a></li><li class="story"><a href="https://b.example/2">Second</a></li></ul>',
        );
      if (url === "/api/redirect-inside") {
        response.writeHead(302, { location: "/api/json" });
        return response.end();
      }
      if (url === "/api/redirect-outside") {
        response.writeHead(302, { location: "/private/secret" });
        return response.end();
      }
      if (url === "/api/big") return response.end("x".repeat(5000));
      if (url === "/api/slow") return setTimeout(() => response.end("late"), 2000);
      response.writeHead(404);
      response.end("not found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

// The stand-ins listen on loopback, which ctx.fetch reaches only when the operator allows it.
const sandbox = new Sandbox({
  defaultTimeoutMs: 5_000,
  egress: createEgressPolicy({ allow: ["127.0.0.1"] }),
});
after(() => {
  sandbox.close();
  server.closeAllConnections();
  server.close();
});

const fetchTool = `async function get(args, ctx) {
  const response = await ctx.fetch(args.url, args.init);
  return { status: response.status, ok: response.ok, text: await response.text() };
}`;

function grant(extra: Partial<NonNullable<Capabilities["fetch"]>> = {}): Capabilities {
  return {
    fetch: { allow: [`${base}/api/`], methods: ["GET"], maxBytes: 1000, timeoutMs: 500, ...extra },
  };
}

async function refusal(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SandboxError);
    return error;
  }
  assert.fail("expected a failure");
}

describe("ctx.fetch", () => {
  it("fetches an allowed URL through the host and hands back status, headers and body", async () => {
    const code = `async function get(args, ctx) {
      const response = await ctx.fetch(args.url, { headers: { "x-test": "yes" } });
      return { status: response.status, type: response.headers["content-length"], data: await response.json() };
    }`;
    const { value } = await sandbox.run({
      code,
      name: "get",
      args: { url: `${base}/api/json` },
      capabilities: grant(),
    });
    assert.deepEqual(value, { status: 200, type: "17", data: { hello: "world" } });
    assert.equal(seen.at(-1)?.header, "yes");
  });

  it("refuses a URL outside the allowlist without sending the request", async () => {
    const before = seen.length;
    const error = await refusal(
      sandbox.run({
        code: fetchTool,
        name: "get",
        args: { url: `${base}/private/secret` },
        capabilities: grant(),
      }),
    );
    assert.equal(error.kind, "runtime");
    assert.match(error.message, /outside this tool's allowlist/);
    assert.equal(seen.length, before);
  });

  it("follows a redirect inside the allowlist and refuses one that leaves it", async () => {
    const inside = await sandbox.run({
      code: fetchTool,
      name: "get",
      args: { url: `${base}/api/redirect-inside` },
      capabilities: grant(),
    });
    assert.deepEqual(inside.value, { status: 200, ok: true, text: '{"hello":"world"}' });
    const before = seen.length;
    const error = await refusal(
      sandbox.run({
        code: fetchTool,
        name: "get",
        args: { url: `${base}/api/redirect-outside` },
        capabilities: grant(),
      }),
    );
    assert.match(error.message, /outside this tool's allowlist.*reached by a redirect/);
    assert.equal(seen.length, before + 1, "the redirect target was requested");
  });

  it("refuses a method that was not granted, and sends one that was", async () => {
    const args = { url: `${base}/api/json`, init: { method: "POST", body: "payload" } };
    const error = await refusal(sandbox.run({ code: fetchTool, name: "get", args, capabilities: grant() }));
    assert.match(error.message, /method POST is not granted/);
    await sandbox.run({
      code: fetchTool,
      name: "get",
      args,
      capabilities: grant({ methods: ["GET", "POST"] }),
    });
    assert.deepEqual(seen.at(-1), { method: "POST", url: "/api/json", body: "payload", header: undefined });
  });

  it("enforces maxBytes and timeoutMs", async () => {
    const big = await refusal(
      sandbox.run({ code: fetchTool, name: "get", args: { url: `${base}/api/big` }, capabilities: grant() }),
    );
    assert.match(big.message, /exceeds maxBytes 1000/);
    const slow = await refusal(
      sandbox.run({ code: fetchTool, name: "get", args: { url: `${base}/api/slow` }, capabilities: grant() }),
    );
    assert.match(slow.message, /no answer within 500 ms/);
  });

  it("lets the tool catch a refusal and carry on", async () => {
    const code = `async function careful(args, ctx) {
      try { await ctx.fetch(args.url); return "fetched"; } catch (error) { return "refused: " + error.message; }
    }`;
    const { value } = await sandbox.run({
      code,
      name: "careful",
      args: { url: "http://169.254.169.254/latest/meta-data" },
      capabilities: grant(),
    });
    assert.match(String(value), /^refused: .*outside this tool's allowlist/);
  });

  it("is absent when not granted", async () => {
    const code = `async function probe(args, ctx) { return { fetch: typeof ctx.fetch, html: typeof ctx.html, keys: Object.keys(ctx) }; }`;
    const { value } = await sandbox.run({ code, name: "probe", args: {} });
    assert.deepEqual(value, { fetch: "undefined", html: "undefined", keys: ["console"] });
  });
});

describe("ctx.html", () => {
  it("selects with CSS host-side and returns text and attributes, honouring attr and limit", async () => {
    const code = `async function top(args, ctx) {
      const page = await (await ctx.fetch(args.url)).text();
      const all = await ctx.html(page, "li.story a");
      const first = await ctx.html(page, "li.story a", { attr: "href", limit: 1 });
      return { all, first };
    }`;
    const { value } = await sandbox.run({
      code,
      name: "top",
      args: { url: `${base}/api/page` },
      capabilities: { ...grant(), html: true },
    });
    assert.deepEqual(value, {
      all: [
        { text: "First", attrs: { href: "https://a.example/1" } },
        { text: "Second", attrs: { href: "https://b.example/2" } },
      ],
      first: [{ text: "First", attrs: { href: "https://a.example/1" } }],
    });
  });

  it("reports an invalid selector", async () => {
    const code = `async function bad(args, ctx) { return ctx.html("<p>x</p>", "p[[["); }`;
    const error = await refusal(sandbox.run({ code, name: "bad", args: {}, capabilities: { html: true } }));
    assert.match(error.message, /invalid selector/);
  });
});

describe("isAllowedUrl", () => {
  it("matches prefixes on boundaries and refuses credentials", () => {
    const allow = ["https://api.example.com/v1", "https://news.example.org"];
    assert.equal(isAllowedUrl(new URL("https://api.example.com/v1/items?q=1"), allow), true);
    assert.equal(isAllowedUrl(new URL("https://api.example.com/v1"), allow), true);
    assert.equal(isAllowedUrl(new URL("https://api.example.com/v10"), allow), false);
    assert.equal(isAllowedUrl(new URL("https://news.example.org/front"), allow), true);
    assert.equal(isAllowedUrl(new URL("https://news.example.org.evil.com/"), allow), false);
    assert.equal(isAllowedUrl(new URL("https://user:pw@news.example.org/"), allow), false);
    assert.equal(isAllowedUrl(new URL("http://news.example.org/"), allow), false);
  });
});
