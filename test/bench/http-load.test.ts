// bench:service's lean load generator against a real HTTP server: every answer is read whole (bodies
// larger than one socket read included), every request carries its own body, and non-2xx answers count.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { postLoad } from "../../bench/http-load.ts";

test("postLoad sends each body once and reads every answer whole", async () => {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      bodies.push(body);
      const { n } = JSON.parse(body) as { n: number };
      // Every third answer is a 422; all are ~100 KB, so they arrive over several reads.
      response.statusCode = n % 3 === 0 ? 422 : 200;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ n, padding: "é".repeat(50_000) }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    let n = 0;
    const { port } = server.address() as AddressInfo;
    const result = await postLoad({
      url: `http://127.0.0.1:${port}`,
      path: "/echo",
      connections: 4,
      seconds: 0.5,
      body: () => JSON.stringify({ n: ++n }),
    });
    assert.ok(result.requests.total > 0);
    assert.equal(result.requests.total, bodies.length);
    assert.equal(new Set(bodies).size, bodies.length, "each request has a body of its own");
    const refused = bodies.filter((body) => (JSON.parse(body) as { n: number }).n % 3 === 0).length;
    assert.equal(result.non2xx, refused);
    assert.ok(result.latency.p50 <= result.latency.p99);
  } finally {
    server.close();
  }
});
