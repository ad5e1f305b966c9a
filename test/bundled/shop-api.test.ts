// The business tools (billing, shipping, accounts) against a local HTTP server standing in for the shop
// API, through the real http binding: the configured base URL and key are used, URL parameters, the
// idempotency key and the body land where the shop expects them, and a missing setting is named.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createProvider } from "../../src/bindings/index.ts";
import { loadCatalog, type Tool } from "../../src/catalog/index.ts";
import { createEgressPolicy } from "../../src/egress/index.ts";
import { Sandbox } from "../../src/synth/index.ts";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const tools = await loadCatalog(join(import.meta.dirname, "../../catalog"));
const sandbox = new Sandbox();
const seen: Seen[] = [];
const shopEgress = createEgressPolicy({ allow: ["127.0.0.1"] });
// Stand-in for the shop API: records each request and answers with a canned JSON body.
const shop = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        refund_id: "re_1",
        order_id: "1234",
        status: "pending",
        amount: { amount: 15, currency: "EUR" },
      }),
    );
  });
});

before(async () => {
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  process.env.SWITCHBOARD_SHOP_API_URL = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/api`;
  process.env.SWITCHBOARD_SHOP_API_KEY = "test-key-123";
});
after(() => {
  shop.close();
  sandbox.close();
});

function invoke(name: string, args: Record<string, unknown>) {
  const tool = tools.find((t) => t.name === name) as Tool;
  assert.ok(tool?.binding, `no tool ${name}`);
  // The shop stand-in is on loopback: allowed as the operator would allow the shop's address.
  const provider = createProvider(tool.binding, tool, { sandbox, egress: shopEgress });
  return provider.invoke(args, { signal: new AbortController().signal, callId: "test", context: {} });
}

test("refund_order posts the refund to the configured shop with the key and the idempotency key", async () => {
  seen.length = 0;
  const output = await invoke("refund_order", {
    order_id: "1234",
    idempotency_key: "9f1c2a7e-refund-1",
    refund: { amount: 15, currency: "EUR", reason: "late_delivery" },
  });
  assert.deepEqual(output, {
    refund_id: "re_1",
    order_id: "1234",
    status: "pending",
    amount: { amount: 15, currency: "EUR" },
  });
  const [request] = seen;
  assert.equal(request?.method, "POST");
  assert.equal(request?.url, "/api/orders/1234/refunds");
  assert.equal(request?.headers.authorization, "Bearer test-key-123");
  assert.equal(request?.headers["idempotency-key"], "9f1c2a7e-refund-1");
  assert.deepEqual(JSON.parse(request?.body ?? ""), { amount: 15, currency: "EUR", reason: "late_delivery" });
});

test("URL parameters are encoded and absent optional query parameters are left out", async () => {
  seen.length = 0;
  await invoke("get_order_status", { order_id: "A/77 81" });
  await invoke("list_invoices", { customer_id: "c_1", limit: 5 });
  assert.deepEqual(
    seen.map((s) => `${s.method} ${s.url}`),
    ["GET /api/orders/A%2F77%2081", "GET /api/customers/c_1/invoices?limit=5"],
  );
});

test("a missing shop API key is named in the error", async () => {
  const key = process.env.SWITCHBOARD_SHOP_API_KEY;
  delete process.env.SWITCHBOARD_SHOP_API_KEY;
  try {
    await assert.rejects(
      invoke("get_invoice", { invoice_id: "INV-1" }),
      /SWITCHBOARD_SHOP_API_KEY is not set/,
    );
  } finally {
    process.env.SWITCHBOARD_SHOP_API_KEY = key;
  }
});
