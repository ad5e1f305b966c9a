// Hostile OpenAPI documents and catalog files: an alias bomb ends with an error, $refs and their redirects
// stay on the document's origin, and a running import ends at once on SIGTERM or SIGINT. Real local HTTP
// servers stand in for a vendor's API host and for an internal service behind it.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { importOpenApi, readCatalog } from "../../src/catalog/index.ts";

const run = promisify(execFile);
const cli = join(import.meta.dirname, "../../bin/switchboard.js");
// Only a safety net: the bomb used to run for more than ten minutes.
const DEADLINE_MS = 60_000;

/** Nine levels of nine aliases: 421 bytes that expand to 9^9 (387 million) strings. */
function aliasBomb(head: string): string {
  const lines = [head, 'x-a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  let previous = "a";
  for (const level of "bcdefghi") {
    lines.push(`x-${level}: &${level} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    previous = level;
  }
  return `${lines.join("\n")}\n`;
}

const OPENAPI_HEAD = 'openapi: "3.0.3"\ninfo: { title: Bomb, version: "1" }\npaths: {}';

async function serve(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const spec = (ref: string) => `openapi: 3.0.3
info: { title: Vendor, version: "1" }
servers: [{ url: "https://api.vendor.example" }]
paths:
  /things:
    get:
      operationId: list_things
      parameters:
        - { name: q, in: query, schema: { $ref: "${ref}" } }
      responses: { "200": { description: ok } }
`;

test("a YAML alias bomb ends the OpenAPI import with one clear error", async () => {
  const file = join(await mkdtemp(join(tmpdir(), "sb-bomb-")), "bomb.yaml");
  await writeFile(file, aliasBomb(OPENAPI_HEAD));
  await assert.rejects(
    run(process.execPath, [cli, "catalog", "import", "openapi", file], {
      timeout: DEADLINE_MS,
      killSignal: "SIGKILL",
    }),
    (error: { code: number | null; signal: string | null; stderr: string }) => {
      assert.equal(error.signal, null, "the import ended by itself, before the deadline");
      assert.equal(error.code, 1);
      assert.match(error.stderr, /cannot import .*bomb\.yaml: .*YAML aliases expand past the limit of 100/);
      return true;
    },
  );
});

test("a YAML alias bomb in a catalog file is one problem naming the file", async () => {
  const folder = await mkdtemp(join(tmpdir(), "sb-bomb-"));
  await writeFile(join(folder, "tools.yaml"), aliasBomb("tools: []"));
  const report = await readCatalog(folder);
  assert.equal(report.problems.length, 1, JSON.stringify(report.problems));
  assert.equal(report.problems[0]?.file, join(folder, "tools.yaml"));
  assert.match(report.problems[0]?.message ?? "", /YAML aliases expand past the limit/);
});

test("a same-origin $ref that redirects to another origin is refused, and nothing of it is read", async (t) => {
  const internal = await serve((_request, response) => {
    response.setHeader("content-type", "application/yaml");
    response.end("type: string\ndefault: internal-secret-value\n");
  });
  t.after(() => internal.server.close());
  const vendor = await serve((request, response) => {
    if (request.url === "/spec.yaml") return response.end(spec(`${vendorOrigin}/param.yaml`));
    if (request.url === "/param.yaml") {
      response.writeHead(302, { location: `${internal.origin}/secret.yaml` });
      return response.end();
    }
    if (request.url === "/moved.yaml") {
      response.writeHead(301, { location: "/param-here.yaml" });
      return response.end();
    }
    if (request.url === "/param-here.yaml") return response.end("type: string\ndefault: vendor-value\n");
    if (request.url === "/spec-moved.yaml") return response.end(spec(`${vendorOrigin}/moved.yaml`));
    response.writeHead(404).end();
  });
  t.after(() => vendor.server.close());
  const vendorOrigin = vendor.origin;

  await assert.rejects(importOpenApi(`${vendor.origin}/spec.yaml`), (error: Error) => {
    assert.match(
      error.message,
      new RegExp(`leads to ${internal.origin}/secret\\.yaml, outside the document's origin`),
    );
    assert.doesNotMatch(error.message, /internal-secret-value/);
    return true;
  });
  // A redirect that stays on the origin is followed.
  const { tools } = await importOpenApi(`${vendor.origin}/spec-moved.yaml`);
  assert.match(JSON.stringify(tools[0]?.inputSchema), /vendor-value/);
});

test("a running import ends at once on SIGTERM and on SIGINT", async (t) => {
  let requests = 0;
  const held = await serve(() => {
    requests++;
  });
  t.after(() => {
    held.server.closeAllConnections();
    held.server.close();
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const child = spawn(process.execPath, [cli, "catalog", "import", "openapi", `${held.origin}/spec.yaml`], {
      stdio: "ignore",
    });
    const seen = requests;
    while (requests === seen) await new Promise((resolve) => setTimeout(resolve, 20));
    const ended = once(child, "exit");
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), DEADLINE_MS);
    const [code, by] = await ended;
    clearTimeout(timer);
    assert.deepEqual({ code, by }, { code: null, by: signal }, `the import ended by ${signal} itself`);
  }
});
