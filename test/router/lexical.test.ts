import assert from "node:assert/strict";
import { test } from "node:test";
import { LexicalIndex } from "../../src/router/lexical.ts";

const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object" as const },
});

const QUERIES = ["list the webhooks of a repository", "delete an issue", "create a project webhook now"];

function scores(index: LexicalIndex, names: string[]): number[][] {
  return QUERIES.map((q) => {
    const found = index.search(q);
    return names.map((n) => found.score(n));
  });
}

// The index keeps BM25's per-document length term between searches; a change to the catalog moves the
// average length, so an index changed after searching must score exactly like one built from scratch.
test("BM25 scores after upserts and removals equal those of an index built fresh", () => {
  const changed = new LexicalIndex();
  changed.upsert(tool("listRepositoryWebhooks", "List the webhooks of a repository."));
  changed.upsert(tool("deleteIssue", "Delete an issue."));
  changed.upsert(tool("createProjectWebhook", "Create a webhook."));
  const names = ["listRepositoryWebhooks", "deleteIssue", "createProjectWebhook", "getProject"];
  const early = scores(changed, names);
  changed.upsert(tool("createProjectWebhook", "Create a webhook on a project, for every push and issue."));
  changed.upsert(tool("getProject", "Get a project and its repository."));
  scores(changed, names);
  // A removal alone adds no document but still moves the average length.
  changed.remove("deleteIssue");

  const fresh = new LexicalIndex();
  fresh.upsert(tool("listRepositoryWebhooks", "List the webhooks of a repository."));
  fresh.upsert(tool("createProjectWebhook", "Create a webhook on a project, for every push and issue."));
  fresh.upsert(tool("getProject", "Get a project and its repository."));

  const late = scores(changed, names);
  assert.deepEqual(late, scores(fresh, names));
  assert.notDeepEqual(late, early);
  assert.equal(late[1]?.[1], 0);
});

// In an API catalog the same words make many tools; which query words stand together decides. Every tool
// here covers "update", "account" and one of "issue"/"payment" equally, so only the pairs tell them apart.
test("BM25 prefers the tool whose name words stand together in one step of the query", () => {
  const index = new LexicalIndex();
  index.upsert(tool("updateAccountIssue", "Update an existing issue of an account."));
  index.upsert(tool("updateAccountPayment", "Update an existing payment of an account."));
  index.upsert(tool("archiveTeamComment", "Archive a comment of a team."));
  index.upsert(tool("deleteTeamComment", "Delete a comment from a team."));
  index.upsert(tool("deleteTeamInvitation", "Delete an invitation from a team."));
  const issue = index.search("update the issue on the account for the payments service");
  assert.ok(issue.score("updateAccountIssue") > issue.score("updateAccountPayment"));
  assert.ok(issue.score("updateAccountIssue") <= 1);
  // "comment" and "delete" sit on either side of "then": no pair, so the two asked-for tools lead.
  const steps = index.search("archive the comment of my team, then delete the invitation on my team");
  const top = steps.top(2).map(([name]) => name);
  assert.deepEqual(top.sort(), ["archiveTeamComment", "deleteTeamInvitation"]);
});

test("BM25 ranks a resource's operation above the same operation on its sub-resource", () => {
  const index = new LexicalIndex();
  index.upsert(tool("deleteProjectIssue", "Delete an issue of a project."));
  index.upsert(tool("deleteProjectIssueComment", "Delete a comment on an issue of a project."));
  index.upsert(tool("listProjectIssueComments", "List the comments on an issue of a project."));
  assert.equal(index.search("delete the issue of a project").top(1)[0]?.[0], "deleteProjectIssue");
  assert.equal(
    index.search("delete the comment on the project's issue").top(1)[0]?.[0],
    "deleteProjectIssueComment",
  );
});

// top() skips adding new documents from the common terms' lists once they cannot enter the top (see
// lexical.ts); on a catalog where a few words are everywhere and others are rare, its answer must still be
// exactly the best documents by their full scores.
test("BM25's pruned top-k equals the best tools by full score", () => {
  const words = [
    "list",
    "get",
    "github",
    "issue",
    "project",
    "comment",
    "webhook",
    "label",
    "release",
    "team",
  ];
  const index = new LexicalIndex();
  const names: string[] = [];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  // Word i appears in a tool with probability falling with i: "list" and "get" are common, "team" rare.
  for (let t = 0; t < 600; t++) {
    const chosen = words.filter((_, i) => next() < 0.9 / (i + 1));
    const name = `tool${t}${chosen.map((w) => w[0]?.toUpperCase() + w.slice(1)).join("")}`;
    names.push(name);
    index.upsert(tool(name, `${chosen.join(" ")} ${words[Math.floor(next() * words.length)]}`));
  }
  const queries = [
    "list the github issues",
    "get a team release label",
    "github webhook for a project comment",
  ];
  for (const q of queries) {
    const found = index.search(q);
    const full = names
      .map((n) => [n, found.score(n)] as const)
      .filter(([, s]) => s > 0)
      .sort((a, b) => b[1] - a[1]);
    for (const k of [1, 5, 20]) {
      const top = found.top(k);
      assert.equal(top.length, Math.min(k, full.length));
      for (const [i, [, s]] of top.entries())
        assert.ok(Math.abs(s - (full[i]?.[1] ?? -1)) < 1e-12, `${q} @${k}: rank ${i}`);
      // After top(), score() reads what it can from the accumulator: still every tool's full score.
      for (const [name, s] of full) assert.equal(found.score(name), s, `${q} @${k}: ${name}`);
    }
  }
});
