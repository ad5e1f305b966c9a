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
