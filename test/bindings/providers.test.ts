import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createProvider, providersFor } from "../../src/bindings/index.ts";
import type { Tool } from "../../src/catalog/index.ts";
import { Sandbox } from "../../src/synth/index.ts";

const sandbox = new Sandbox();
after(() => sandbox.close());

const double: Tool = {
  name: "double",
  description: "Doubles a number",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  binding: { type: "sandbox", code: "async function double(args, ctx) { return args.n * 2; }" },
  policy: {
    fallback: [
      { type: "http", method: "GET", url: "http://127.0.0.1:9/double/{n}" },
      { type: "mcp", command: "my-mcp-server", args: ["--stdio"] },
    ],
  },
};

test("a sandbox binding is run by the shared Sandbox", async () => {
  const provider = createProvider(double.binding as NonNullable<Tool["binding"]>, double, { sandbox });
  const out = await provider.invoke(
    { n: 21 },
    { signal: new AbortController().signal, callId: "c", context: {} },
  );
  assert.equal(out, 42);
});

test("providersFor gives the binding then the fallback chain, built once per tool definition", () => {
  const providers = providersFor(double, { sandbox });
  assert.deepEqual(
    providers.map((p) => p.id),
    ["sandbox:double", "http:GET http://127.0.0.1:9/double/{n}", "mcp:my-mcp-server --stdio#double"],
  );
  assert.equal(providersFor(double, { sandbox }), providers, "the same providers for the same definition");
  const replaced = { ...double, description: "Doubles a number, version 2" };
  assert.notEqual(providersFor(replaced, { sandbox }), providers, "a new definition gets new providers");
  assert.deepEqual(providersFor({ ...double, binding: undefined, policy: undefined }, { sandbox }), []);
});
