// The OpenAPI document is good enough to generate a typed client from: openapi-typescript turns the served
// /openapi.json into types, a client written against them type-checks only if the answers are typed, and
// it calls the real service. The answers it gets are also checked against the document's schemas.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import openapiTS, { astToString } from "openapi-typescript";
import { call, ROOT, type Service, startService, tempDir } from "./harness.ts";

let service: Service;
let folder: string;

before(async () => {
  service = await startService();
  folder = await tempDir("openapi-client");
});
after(async () => {
  await service.stop();
  await rm(folder, { recursive: true, force: true });
});

const CLIENT = `import createClient from "openapi-fetch";
import type { paths } from "./api.js";

const client = createClient<paths>({ baseUrl: process.argv[2] });
const routed = await client.POST("/v1/route", { body: { query: "convert 10 USD to EUR" } });
if (!routed.data) throw new Error("no route answer");
const best: string = routed.data.tools[0]?.name ?? "";
const matched: boolean = routed.data.matched;
const saved: number = routed.data.context.savedRatio;
const missing = await client.POST("/v1/execute", { body: { calls: [{ id: "1", name: "no_such_tool" }] } });
const code: string | undefined = missing.data?.results[0]?.error?.class;
const listed = await client.GET("/v1/tools");
const count: number = listed.data?.tools.length ?? 0;
console.log(JSON.stringify({ best, matched, saved, status: missing.response.status, code, count }));
`;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: folder }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("a client generated from /openapi.json is typed and calls the service", async () => {
  const document = (await call(service, "GET", "/openapi.json")).body;
  await writeFile(join(folder, "api.d.ts"), astToString(await openapiTS(document)));
  await writeFile(join(folder, "client.ts"), CLIENT);
  await writeFile(join(folder, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "nodenext",
        target: "es2024",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
      },
      files: ["client.ts"],
    }),
  );
  await mkdir(join(folder, "node_modules"), { recursive: true });
  for (const name of ["openapi-fetch", "@types"])
    await symlink(join(ROOT, "node_modules", name), join(folder, "node_modules", name));
  const typecheck = await run([join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."]);
  assert.equal(typecheck.code, 0, `${typecheck.stdout}${typecheck.stderr}`);
  const client = await run(["client.ts", service.url]);
  assert.equal(client.code, 0, client.stderr);
  const seen = JSON.parse(client.stdout);
  assert.equal(seen.best, "convert_currency");
  assert.equal(seen.matched, true);
  // An unknown tool fails its own call; the batch is answered.
  assert.equal(seen.status, 200);
  assert.equal(seen.code, "unknown_tool");
  assert.ok(seen.count > 0);
});

test("the service's answers match the document's schemas, errors included", async () => {
  const document = (await call(service, "GET", "/openapi.json")).body;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(document, "openapi");
  const check = (path: string, method: string, status: number, body: unknown) => {
    const pointer = `openapi#/paths/${path.replaceAll("/", "~1")}/${method}/responses/${status}/content/application~1json/schema`;
    const validate = ajv.getSchema(pointer);
    assert.ok(validate, `${method} ${path} documents ${status}`);
    assert.ok(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`);
  };
  const answers: [string, string, string, unknown][] = [
    ["POST", "/v1/route", "/v1/route", { query: "what is the weather in Paris", format: "openai" }],
    [
      "POST",
      "/v1/execute",
      "/v1/execute",
      { calls: [{ id: "a", name: "calculate", arguments: { expression: "1+2" } }] },
    ],
    ["POST", "/v1/execute", "/v1/execute", { calls: [{ id: "a", name: "no_such_tool" }] }],
    [
      "POST",
      "/v1/route-and-execute",
      "/v1/route-and-execute",
      { query: "calculate 2 * 21", arguments: { expression: "2*21" } },
    ],
    ["GET", "/v1/tools", "/v1/tools", undefined],
    ["GET", "/v1/tools/{name}", "/v1/tools/calculate", undefined],
    ["GET", "/v1/tools/{name}", "/v1/tools/nope", undefined],
    ["GET", "/v1/executions", "/v1/executions", undefined],
    ["GET", "/v1/breakers", "/v1/breakers", undefined],
    ["POST", "/v1/route", "/v1/route", { query: 3 }],
  ];
  for (const [method, documented, path, body] of answers) {
    const answer = await call(service, method, path, body === undefined ? {} : { body });
    check(documented, method.toLowerCase(), answer.status, answer.body);
  }
});
