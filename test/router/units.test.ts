// The router's pure parts: name splitting, BM25 coverage, fusion, metrics, feedback bounds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { combinatorialNaming, forCatalog } from "../../src/router/catalog-profile.ts";
import { addPair, MAX_FEEDBACK_PER_TOOL, MAX_FEEDBACK_TOTAL } from "../../src/router/feedback.ts";
import { fuse } from "../../src/router/fusion.ts";
import { LexicalIndex } from "../../src/router/lexical.ts";
import { auroc, evaluate } from "../../src/router/metrics.ts";
import { namePairs, nameWords, queryTerms } from "../../src/router/text.ts";

const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object" as const },
});

test("tool names split into words: camelCase, snake_case, acronyms and digits", () => {
  assert.deepEqual(nameWords("listRepositoryWebhooks"), ["list", "repository", "webhooks"]);
  assert.deepEqual(nameWords("get_user_v2"), ["get", "user", "v", "2"]);
  assert.deepEqual(nameWords("PDFToText"), ["pdf", "to", "text"]);
});

test("query pairs: terms near each other within one step of the request, never across steps", () => {
  const { terms, pairs } = queryTerms(
    "archive the comments of my team, then delete the invitation and export it",
  );
  assert.deepEqual(terms, ["archiv", "comment", "team", "delet", "invitation", "export"]);
  assert.deepEqual(pairs.sort(), ["archiv+comment", "archiv+team", "comment+team", "delet+invitation"]);
  assert.deepEqual(namePairs(["delete", "project", "issue"]).sort(), [
    "delete+issue",
    "delete+project",
    "issue+project",
  ]);
});

test("BM25 ranks the tool whose name words match, and scores coverage in 0..1", () => {
  const index = new LexicalIndex();
  index.upsert(tool("listRepositoryWebhooks", "List the webhooks of a repository."));
  index.upsert(tool("deleteRepositoryWebhook", "Delete a webhook from a repository."));
  index.upsert(tool("listProjectIssues", "List the issues of a project."));
  const found = index.search("delete the webhook on my repo repository");
  const ranked = found.top(3);
  assert.equal(ranked[0]?.[0], "deleteRepositoryWebhook");
  assert.equal(ranked.length, 2);
  for (const [name, s] of ranked) {
    assert.ok(s > 0 && s <= 1);
    assert.equal(found.score(name), s);
  }
  index.remove("deleteRepositoryWebhook");
  assert.equal(index.search("delete webhook").score("deleteRepositoryWebhook"), 0);
  assert.equal(index.size, 2);
});

test("fusion mixes dense and lexical by the weight, BM25 and subword by the share, and sorts best first", () => {
  const scores = {
    dense: new Map([
      ["a", 0.8],
      ["b", 0.4],
    ]),
    lexical: new Map([["b", 1]]),
    subword: new Map([
      ["a", 0.9],
      ["b", 0.1],
    ]),
  };
  const at = (lexicalWeight: number, subwordShare: number) => fuse(scores, { lexicalWeight, subwordShare });
  assert.equal(at(0, 0)[0]?.name, "a");
  assert.equal(at(0.7, 0)[0]?.name, "b");
  assert.ok(Math.abs((at(0.5, 0)[0]?.fused ?? 0) - 0.7) < 1e-9);
  // b: 0.5·0.4 + 0.5·(0.5·1 + 0.5·0.1) = 0.475; a: 0.5·0.8 + 0.5·(0.5·0 + 0.5·0.9) = 0.625.
  const mixed = at(0.5, 0.5);
  assert.deepEqual(
    mixed.map((c) => [c.name, Math.round(c.fused * 1000) / 1000]),
    [
      ["a", 0.625],
      ["b", 0.475],
    ],
  );
  assert.deepEqual(mixed[1], { name: "b", dense: 0.4, lexical: 1, subword: 0.1, fused: mixed[1]?.fused });
});

test("metrics: hit@1, recall@K, complete@K, MRR, AUROC and accuracy", () => {
  const m = evaluate(
    [
      { gold: ["a"], ranked: ["a", "b"], confidence: 0.9, matched: true, ms: 1 },
      { gold: ["a", "c"], ranked: ["b", "a"], confidence: 0.7, matched: true, ms: 2 },
      { gold: [], ranked: ["b"], confidence: 0.2, matched: false, ms: 3 },
    ],
    2,
  );
  assert.equal(m["hit@1"], 0.5);
  assert.equal(m["recall@2"], 0.75);
  assert.equal(m["complete@2"], 0.5);
  assert.equal(m.mrr, 0.75);
  assert.equal(m.noToolAUROC, 1);
  assert.equal(m.noToolAccuracy, 1);
  assert.equal(auroc([{ gold: ["a"], confidence: 0.5 }]), null);
  assert.equal(
    auroc([
      { gold: ["a"], confidence: 0.5 },
      { gold: [], confidence: 0.5 },
    ]),
    0.5,
  );
});

test("feedback is deduplicated and bounded per tool and in total, oldest dropped first", () => {
  let pairs = addPair([], { query: "Refund  my order", tool: "refund" });
  pairs = addPair(pairs, { query: "refund my order ", tool: "refund" });
  assert.equal(pairs.length, 1);
  for (let i = 0; i < MAX_FEEDBACK_PER_TOOL + 5; i++)
    pairs = addPair(pairs, { query: `q${i}`, tool: "refund" });
  assert.equal(pairs.length, MAX_FEEDBACK_PER_TOOL);
  assert.equal(pairs[0]?.query, "q5");
  pairs = Array.from({ length: MAX_FEEDBACK_TOTAL }, (_, i) => ({ query: `x${i}`, tool: `t${i % 1000}` }));
  pairs = addPair(pairs, { query: "newest", tool: "t1" });
  assert.equal(pairs.length, MAX_FEEDBACK_TOTAL);
  assert.equal(pairs[0]?.query, "x1");
  assert.equal(pairs.at(-1)?.query, "newest");
});

test("catalog profile: API-style naming moves an uncalibrated catalog's fusion towards lexical", () => {
  const api = ["listProjectIssues", "deleteProjectIssue", "deleteAccountIssue", "list_account_issues"].map(
    (n) => tool(n, "An operation."),
  );
  const oneOff = ["WeatherTool", "FinanceTool", "PDF&URLTool", "searchFlights"].map((n) =>
    tool(n, "A tool."),
  );
  assert.equal(combinatorialNaming(api), 1);
  assert.equal(combinatorialNaming(oneOff), 0);
  assert.equal(combinatorialNaming([...api, ...oneOff]), 0.5);
  const generic = {
    version: 1 as const,
    embedderId: "test",
    lexicalWeight: 0.6,
    subwordShare: 0.3,
    rejectWeight: 0,
    threshold: 0.3,
    tierConfidence: null,
    source: "generic",
    noToolQueries: [],
  };
  assert.equal(forCatalog(generic, oneOff), generic);
  const adapted = forCatalog(generic, [...api, ...oneOff]);
  assert.ok(adapted.lexicalWeight > 0.6 && adapted.lexicalWeight < forCatalog(generic, api).lexicalWeight);
  assert.match(adapted.source, /^generic; lexical weight 0.6 -> /);
});
