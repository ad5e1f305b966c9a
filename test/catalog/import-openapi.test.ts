import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { importOpenApi, type Tool, validateAgainstSchema } from "../../src/catalog/index.ts";

const run = promisify(execFile);
const cli = join(import.meta.dirname, "../../bin/switchboard.js");
const petstore = join(import.meta.dirname, "../fixtures/petstore.yaml");
const { tools, warnings } = await importOpenApi(petstore);
const byName = new Map(tools.map((t) => [t.name, t]));

function tool(name: string): Tool {
  const found = byName.get(name);
  assert.ok(found, `tool ${name} was imported`);
  return found;
}

function accepts(name: string, args: unknown) {
  assert.deepEqual(
    validateAgainstSchema(tool(name).inputSchema, args),
    [],
    `${name} accepts ${JSON.stringify(args)}`,
  );
}

function rejectsAt(name: string, args: unknown, path: string) {
  const issues = validateAgainstSchema(tool(name).inputSchema, args);
  assert.ok(
    issues.some((i) => i.path === path),
    `${name} rejects ${JSON.stringify(args)} at "${path}"; got ${JSON.stringify(issues)}`,
  );
}

test("every operation becomes a tool, named by operationId or by method and path", () => {
  assert.deepEqual(
    tools.map((t) => t.name),
    [
      "listPets",
      "createPet",
      "showPetById",
      "updatePet",
      "deletePet",
      "get_store_inventory",
      "listCategories",
      "createCategory",
    ],
  );
  assert.deepEqual(warnings, [
    "the bindings read credentials from the environment: set PETSTORE_API_KEY, PETSTORE_BEARER",
  ]);
  assert.equal(tool("listPets").description, "List all pets\n\nPets in the store, newest first.");
  assert.equal(tool("listCategories").description, "The category tree");
});

test("input schemas accept the operations' valid requests", () => {
  accepts("listPets", {});
  accepts("listPets", { limit: 100, tags: ["dog", "cat"] });
  accepts("createPet", { body: { name: "Rex", tag: null, status: "available" } });
  accepts("showPetById", { petId: 7 });
  accepts("updatePet", { petId: 7, body: { name: "Rex" } });
  accepts("deletePet", { petId: 7, "X-Request-Id": "0b6f2a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b" });
  accepts("createCategory", { body: { name: "animals", children: [{ name: "dogs", children: [] }] } });
});

test("input schemas reject invalid requests at the offending field", () => {
  rejectsAt("listPets", { limit: 101 }, "limit");
  rejectsAt("listPets", { limit: "ten" }, "limit");
  rejectsAt("listPets", { tags: "dog" }, "tags");
  rejectsAt("listPets", { colour: "red" }, "colour");
  rejectsAt("createPet", {}, "body");
  rejectsAt("createPet", { body: { tag: "dog" } }, "body.name");
  rejectsAt("createPet", { body: { name: "" } }, "body.name");
  rejectsAt("createPet", { body: { name: "Rex", status: "lost" } }, "body.status");
  rejectsAt("showPetById", {}, "petId");
  rejectsAt("showPetById", { petId: 0 }, "petId");
  rejectsAt("showPetById", { petId: 1.5 }, "petId");
  rejectsAt("updatePet", { petId: 7 }, "body");
  rejectsAt("deletePet", { petId: 7, "X-Request-Id": "not-a-uuid" }, "X-Request-Id");
  rejectsAt(
    "createCategory",
    { body: { name: "animals", children: [{ children: [] }] } },
    "body.children.0.name",
  );
});

test("read-only fields are not asked for in requests", () => {
  const properties = tool("createPet").inputSchema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(properties.body?.properties as object), ["name", "tag", "status"]);
  assert.deepEqual(properties.body?.required, ["name"]);
  assert.ok("id" in ((tool("showPetById").outputSchema?.properties ?? {}) as object), "responses keep them");
});

test("annotations follow the method, and bindings map path, query, header and body", () => {
  assert.deepEqual(tool("listPets").annotations, { readOnlyHint: true, openWorldHint: true });
  assert.equal(tool("createPet").annotations?.idempotentHint, false);
  assert.equal(tool("updatePet").annotations?.idempotentHint, true);
  assert.equal(tool("updatePet").annotations?.destructiveHint, false);
  assert.deepEqual(tool("deletePet").annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.deepEqual(tool("listPets").binding, {
    type: "http",
    method: "GET",
    url: "https://eu.petstore.example/v1/pets",
    query: { limit: "{limit}", tags: "{tags}" },
  });
  assert.deepEqual(tool("updatePet").binding, {
    type: "http",
    method: "PUT",
    url: "https://eu.petstore.example/v1/pets/{petId}",
    headers: { "X-API-Key": "{env.PETSTORE_API_KEY}" },
    body: "body",
  });
});

test("credentials become {env.NAME} placeholders: the document's default, an override, and a public operation", () => {
  assert.deepEqual(tool("deletePet").binding, {
    type: "http",
    method: "DELETE",
    url: "https://eu.petstore.example/v1/pets/{petId}",
    headers: { "X-Request-Id": "{X-Request-Id}", Authorization: "Bearer {env.PETSTORE_BEARER}" },
  });
  assert.deepEqual((tool("showPetById").binding as { headers: object }).headers, {
    "X-API-Key": "{env.PETSTORE_API_KEY}",
  });
  assert.ok(!("headers" in (tool("listPets").binding as object)), "security: [] means no credentials");
});

test("the CLI writes the tools with --out, prints them without, and the output passes catalog validate", async () => {
  const out = join(await mkdtemp(join(tmpdir(), "sb-openapi-")), "petstore.json");
  const written = await run(process.execPath, [
    cli,
    "catalog",
    "import",
    "openapi",
    petstore,
    "--out",
    out,
    "--json",
  ]);
  assert.deepEqual(JSON.parse(written.stdout), { out, tools: 8, warnings });
  assert.deepEqual(JSON.parse(await readFile(out, "utf8")), tools);

  const printed = await run(process.execPath, [cli, "catalog", "import", "openapi", petstore]);
  assert.deepEqual(JSON.parse(printed.stdout), tools);

  const validated = await run(process.execPath, [cli, "catalog", "validate", out, "--json"]);
  const report = JSON.parse(validated.stdout);
  assert.equal(report.valid, true);
  assert.equal(report.tools, 8);
  assert.deepEqual(report.problems, []);
});

test("a document that is not OpenAPI 3 gets one clear error and exit 1", async () => {
  const swagger2 = join(await mkdtemp(join(tmpdir(), "sb-openapi-")), "swagger.json");
  await writeFile(
    swagger2,
    JSON.stringify({ swagger: "2.0", info: { title: "Old", version: "1" }, paths: {} }),
  );
  await assert.rejects(importOpenApi(swagger2), /swagger\.json: not an OpenAPI 3 document \(Swagger 2\.0/);
  await assert.rejects(
    run(process.execPath, [
      cli,
      "catalog",
      "import",
      "openapi",
      join(import.meta.dirname, "../fixtures/store-writer.ts"),
    ]),
    (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /cannot import .*store-writer\.ts/);
      assert.equal(error.stderr.trim().split("\n").length, 1, error.stderr);
      return true;
    },
  );
  await assert.rejects(run(process.execPath, [cli, "catalog", "import", "openapi"]), { code: 2 });
});

test("an OpenAPI 3.1 JSON document imports too, with a warning for each part left out", async () => {
  const todo = await importOpenApi(join(import.meta.dirname, "../fixtures/todo-openapi-3.1.json"));
  assert.deepEqual(
    todo.tools.map((t) => t.name),
    ["todos_search", "createTodo"],
  );
  assert.deepEqual(todo.warnings, [
    "the document gives no absolute server URL: the bindings read the API's origin from the environment variable TODO_API_BASE_URL",
    'todos_search: cookie parameter "session" is not supported by http bindings; left out',
    "uploadAttachment: left out: its request body (multipart/form-data) is not JSON, and http bindings send only JSON bodies",
    "the bindings read credentials from the environment: set TODO_API_KEY",
  ]);
  const [search, create] = todo.tools as [Tool, Tool];
  assert.deepEqual(validateAgainstSchema(search.inputSchema, { q: "milk", after: null }), []);
  assert.ok(validateAgainstSchema(search.inputSchema, { q: "m" }).some((i) => i.path === "q"));
  assert.deepEqual(
    validateAgainstSchema(create.inputSchema, { body: { title: "Buy milk", priority: 5 } }),
    [],
  );
  assert.ok(
    validateAgainstSchema(create.inputSchema, { body: { title: "x", priority: 0 } }).some(
      (i) => i.path === "body.priority",
    ),
  );
  assert.ok(
    validateAgainstSchema(create.inputSchema, { body: { title: "x", due: 1 } }).some(
      (i) => i.path === "body.due",
    ),
  );
  assert.equal((search.binding as { url: string }).url, "{env.TODO_API_BASE_URL}/todos");
  assert.deepEqual((search.binding as { query: object }).query, {
    q: "{q}",
    after: "{after}",
    api_key: "{env.TODO_API_KEY}",
  });
});

test("a document's $refs read files in its own folder only, and no URL", async () => {
  const root = await mkdtemp(join(tmpdir(), "switchboard-refs-"));
  const folder = join(root, "vendor");
  await mkdir(folder);
  await writeFile(join(root, "secret.yaml"), "DB_PASSWORD: supersecretvalue\n");
  await writeFile(join(folder, "defaults.yaml"), "limit: 10\n");
  await symlink(join(root, "secret.yaml"), join(folder, "link.yaml"));
  const spec = (ref: string) => `openapi: 3.0.3
info: { title: Vendor, version: "1" }
servers: [{ url: "https://api.vendor.example" }]
paths:
  /things:
    get:
      operationId: list_things
      parameters:
        - { name: q, in: query, schema: { type: object, default: { $ref: "${ref}" } } }
      responses: { "200": { description: ok } }
`;
  // Before, ../secret.yaml was read into the imported tool's schema as a default value.
  for (const ref of [
    "../secret.yaml",
    "./link.yaml",
    `${root}/secret.yaml`,
    "/proc/self/environ",
    "http://127.0.0.1:9/s",
  ]) {
    const file = join(folder, "spec.yaml");
    await writeFile(file, spec(ref));
    await assert.rejects(importOpenApi(file), (error: Error) => {
      assert.match(error.message, /Unable to resolve \$ref pointer/, ref);
      assert.doesNotMatch(error.message, /supersecretvalue/);
      return true;
    });
  }
  const file = join(folder, "spec.yaml");
  await writeFile(file, spec("./defaults.yaml"));
  const { tools } = await importOpenApi(file);
  assert.match(JSON.stringify(tools[0]?.inputSchema), /"limit":10/, "a file beside the document is read");
});
