// How an http binding may use the session context: declared keys only, in query and header templates.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bindingIssues, type Tool, toolSchema } from "../../src/catalog/index.ts";

const tool = (binding: object): Tool =>
  toolSchema.parse({ name: "t", description: "d", inputSchema: { type: "object" }, binding }) as Tool;

test("a {context.KEY} placeholder must be declared, and may not shape the URL", () => {
  const ok = tool({
    type: "http",
    method: "GET",
    url: "https://example.com/w",
    query: { city: "{context.location}" },
    headers: { authorization: "Bearer {context.token}" },
    context: { read: ["location", "token"], write: { token: "auth.token" } },
  });
  assert.deepEqual(bindingIssues(ok), []);
  const bad = tool({
    type: "http",
    method: "GET",
    url: "https://example.com/{context.location}",
    query: { city: "{context.place}" },
    context: { read: ["location"] },
  });
  assert.deepEqual(
    bindingIssues(bad).map((i) => i.path),
    ["binding.url", "binding.query.city"],
  );
  assert.throws(() =>
    tool({ type: "http", method: "GET", url: "https://e.com", context: { read: ["not a key"] } }),
  );
});
