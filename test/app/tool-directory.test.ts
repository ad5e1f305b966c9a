// ToolDirectory: the registry as one caller sees it. Another agent key's pending tool is as unknown as a
// missing name, hidden from routing and left out of listings; its owner and maintainers see it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ToolDirectory } from "../../src/app/tool-directory.ts";
import { type Fixture, openFixture, PRIVATE_TOOL, pendingFor } from "./services-fixture.ts";

const owner = { role: "agent" as const, id: "agent:owner" };
const other = { role: "agent" as const, id: "agent:other" };
const maintainer = { role: "maintainer" as const, id: "maintainer:m" };
let fixture: Fixture;
let directory: ToolDirectory;

before(async () => {
  fixture = await openFixture();
  await fixture.registry.put(PRIVATE_TOOL, "synthesized", pendingFor(owner.id));
  directory = new ToolDirectory(fixture.registry);
});
after(() => fixture.close());

test("another agent key's pending tool is unknown to it by name and by its provider alias", () => {
  assert.equal(directory.get("count.words", other), undefined);
  assert.equal(directory.resolveName("count_words", other), undefined);
  assert.deepEqual(directory.names(other), ["get_weather", "send_note"]);
});

test("the owner, a maintainer and the local operator reach the pending tool, also by its alias", () => {
  for (const viewer of [owner, maintainer, undefined]) {
    assert.equal(directory.get("count.words", viewer)?.name, "count.words");
    assert.equal(directory.resolveName("count_words", viewer), "count.words");
  }
});

test("routing hides the pending tool from everyone but its owner, and filters nothing when nothing is hidden", () => {
  assert.equal(directory.hiddenFrom(other)?.("count.words"), true);
  assert.equal(directory.hiddenFrom(other)?.("get_weather"), false);
  assert.equal(directory.hiddenFrom(owner), undefined);
  // A maintainer reviews pending tools by name but is not routed to them.
  assert.equal(directory.hiddenFrom(maintainer)?.("count.words"), true);
});

test("a listing gives the owner the whole provenance of its pending tool and leaves the tool out for other agent keys", () => {
  const forOwner = directory.listings(owner).find((l) => l.name === "count.words");
  assert.equal(forOwner?.synthesis?.owner, owner.id);
  assert.equal(forOwner?.synthesis?.request, "count the words of a text");
  assert.equal(
    directory.listings(other).find((l) => l.name === "count.words"),
    undefined,
    "not listed to another agent key at all",
  );
  assert.deepEqual(
    directory.listings(maintainer).map((l) => [l.name, l.origin]),
    [
      ["get_weather", "catalog"],
      ["send_note", "catalog"],
      ["count.words", "synthesized"],
    ],
  );
});
