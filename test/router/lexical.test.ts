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
