import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ToolRegistry } from "../../src/catalog/index.ts";
import { FileStore } from "../../src/store/index.ts";
import { Sandbox, type SynthesisOutcome, synthesize } from "../../src/synth/index.ts";

// A tool's answer may come late on a busy machine, and load changes after a one-time measurement: the default
// deadline is one no machine reaches. The runaway test sets its own.
const sandbox = new Sandbox({ defaultTimeoutMs: 60_000 });
const folders: string[] = [];
after(async () => {
  sandbox.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const slugify = {
  name: "slugify",
  description: "Turns a title into a URL slug: lower case, words joined by hyphens.",
  inputSchema: {
    type: "object",
    properties: { title: { type: "string", minLength: 1 } },
    required: ["title"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { slug: { type: "string" } }, required: ["slug"] },
  code: `async function slugify(args, ctx) {
  const slug = args.title.toLowerCase().trim().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  ctx.console.log("slug", slug);
  return { slug };
}`,
  testArgs: { title: "Hello, World!" },
};

function failed(outcome: SynthesisOutcome) {
  assert.equal(outcome.ok, false, `expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome as Extract<SynthesisOutcome, { ok: false }>;
}

describe("synthesize", () => {
  it("checks, test-runs and registers a tool: persisted, versioned and announced to the router", async () => {
    const data = await mkdtemp(join(tmpdir(), "synth-"));
    folders.push(data);
    const registry = await ToolRegistry.open({ store: new FileStore(data) });
    const announced: string[] = [];
    registry.on("change", (change) => announced.push(`${change.type}:${change.tool.name}`));

    const first = await synthesize(slugify, { sandbox, registry });
    assert.equal(first.ok, true, JSON.stringify(first));
    if (!first.ok) return;
    assert.deepEqual(first.tests, [
      {
        arguments: { title: "Hello, World!" },
        output: { slug: "hello-world" },
        console: [{ level: "log", message: "slug hello-world" }],
      },
    ]);
    assert.equal(first.tool.version, 1);
    assert.deepEqual(first.tool.binding, { type: "sandbox", code: slugify.code });
    assert.deepEqual(announced, ["put:slugify"]);

    const second = await synthesize(
      { ...slugify, description: `${slugify.description} Version two.` },
      { sandbox, registry },
    );
    assert.equal(second.ok && second.tool.version, 2);

    const reopened = await ToolRegistry.open({ store: new FileStore(data) });
    assert.equal(reopened.entry("slugify")?.origin, "synthesized");
    assert.equal(reopened.get("slugify")?.version, 2);
  });

  it("returns the tool unregistered when no registry is given", async () => {
    const outcome = await synthesize(slugify, { sandbox });
    assert.equal(outcome.ok && outcome.tool.version, undefined);
  });

  it("fails at the definition stage with field paths", async () => {
    const outcome = failed(
      await synthesize({ ...slugify, name: "not a name", inputSchema: { type: "array" } }, { sandbox }),
    );
    assert.equal(outcome.stage, "definition");
    assert.deepEqual(
      outcome.errors.map((e) => e.path),
      ["name"],
    );
    const schema = failed(await synthesize({ ...slugify, inputSchema: { type: "array" } }, { sandbox }));
    assert.equal(schema.errors[0]?.path, "inputSchema.type");
    const badSchema = failed(
      await synthesize(
        { ...slugify, inputSchema: { type: "object", properties: { a: { type: "nope" } } } },
        { sandbox },
      ),
    );
    assert.match(badSchema.errors[0]?.message ?? "", /invalid JSON Schema/);
    const capability = failed(
      await synthesize({ ...slugify, capabilities: { fetch: { allow: ["not a url"] } } }, { sandbox }),
    );
    assert.equal(capability.errors[0]?.path, "capabilities.fetch.allow.0");
    const args = failed(await synthesize({ ...slugify, testArgs: { title: 5 } }, { sandbox }));
    assert.deepEqual(args.errors[0]?.path, "testArgs.title");
  });

  it("fails at the static stage with each violation's line and column", async () => {
    const code = "async function slugify(args) {\n  const fs = require('fs');\n  return eval('1');\n}";
    const outcome = failed(await synthesize({ ...slugify, code }, { sandbox }));
    assert.equal(outcome.stage, "static");
    assert.equal(outcome.kind, "policy");
    assert.deepEqual(
      outcome.errors.map((e) => [e.line, e.column]),
      [
        [2, 14],
        [3, 10],
      ],
    );
  });

  it("fails at the compile stage when V8 refuses what acorn let through", async () => {
    // Strict mode (which tools are compiled in) forbids duplicate parameter names; sloppy acorn does not.
    const code = "function slugify(a, a) { return { slug: a }; }";
    const outcome = failed(await synthesize({ ...slugify, code }, { sandbox }));
    assert.equal(outcome.stage, "compile");
    assert.match(outcome.errors[0]?.message ?? "", /Duplicate parameter/);
  });

  it("fails at the runtime stage with the position of the throw", async () => {
    const code = "async function slugify(args) {\n  if (args.title) throw new Error('no slugs today');\n}";
    const outcome = failed(await synthesize({ ...slugify, code }, { sandbox }));
    assert.equal(outcome.stage, "runtime");
    assert.deepEqual(outcome.errors, [{ message: "Error: no slugs today", line: 2, column: 25 }]);
    const slow = failed(
      await synthesize({ ...slugify, code: "function slugify() { for (;;); }" }, { sandbox, timeoutMs: 100 }),
    );
    assert.equal(slow.stage, "runtime");
    assert.equal(slow.kind, "timeout");
  });

  it("fails at the output stage when the result breaks outputSchema or an expected example", async () => {
    const code = "function slugify(args) { return { slug: 42 }; }";
    const schema = failed(await synthesize({ ...slugify, code }, { sandbox }));
    assert.equal(schema.stage, "output");
    assert.equal(schema.kind, "schema");
    assert.equal(schema.errors[0]?.path, "output.slug");
    const mismatch = failed(
      await synthesize(
        {
          ...slugify,
          testArgs: undefined,
          examples: [{ arguments: { title: "A B" }, expect: { slug: "a_b" } }],
        },
        { sandbox },
      ),
    );
    assert.equal(mismatch.kind, "mismatch");
    assert.equal(mismatch.errors[0]?.path, "examples.0.expect");
    const notJson = failed(
      await synthesize({ ...slugify, code: "function slugify() { return new Map(); }" }, { sandbox }),
    );
    assert.equal(notJson.stage, "output");
    assert.match(notJson.errors[0]?.message ?? "", /not a plain object/);
  });
});
