// The egress policy on its own: which destinations it refuses after resolution, which operator entries
// re-admit them, and that its fetch refuses at connection time, redirects included. Only loopback traffic:
// the refused addresses are refused before any packet leaves.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { createEgressPolicy, EgressConfigError, parseRule } from "../../src/egress/index.ts";

let server: Server;
let port: number;

before(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith("/hop")) {
      res.writeHead(302, { location: `http://127.0.0.2:${port}/landed` });
      return res.end();
    }
    res.end(`ok ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

test("every non-public address is refused, in any spelling, and public ones pass", async () => {
  const policy = createEgressPolicy();
  const refused = [
    "http://127.0.0.1/",
    "http://127.1/",
    "http://0x7f.0.0.1/",
    "http://2130706433/",
    "http://localhost/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    // IPv4-compatible (deprecated): ipaddr.js called these plain unicast, so they were allowed.
    "http://[::127.0.0.1]/",
    "http://[::a9fe:a9fe]/",
    "http://[::10.0.0.1]/",
    "http://0.0.0.0/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
  ];
  for (const url of refused) {
    const verdict = await policy.check(url);
    assert.equal(verdict.allowed, false, url);
    if (!verdict.allowed) assert.match(verdict.reason, /not a public address/, url);
  }
  for (const url of ["http://8.8.8.8/", "https://[2606:4700:4700::1111]/", "http://[::8.8.8.8]/"]) {
    assert.deepEqual((await policy.check(url)).allowed, true, url);
  }
  for (const url of ["file:///etc/passwd", "ftp://8.8.8.8/", "not a url"]) {
    assert.equal((await policy.check(url)).allowed, false, url);
  }
});

test("operator entries admit a host, a host:port, an address or a range, and nothing more", async () => {
  const policy = createEgressPolicy({ allow: ["localhost:8080", "10.0.0.0/8", "192.168.1.5", "[::1]:9000"] });
  const allowed = async (url: string) => (await policy.check(url)).allowed;
  assert.equal(await allowed("http://localhost:8080/"), true);
  assert.equal(await allowed("http://localhost:8081/"), false);
  assert.equal(await allowed("http://10.200.0.1:1234/"), true);
  assert.equal(await allowed("http://11.0.0.1/"), true, "public anyway");
  assert.equal(await allowed("http://192.168.1.5:1/"), true);
  assert.equal(await allowed("http://192.168.1.6/"), false);
  assert.equal(await allowed("http://[::1]:9000/"), true);
  assert.equal(await allowed("http://[::1]:9001/"), false);
  assert.equal(await allowed("http://127.0.0.1:8080/"), false, "a name entry does not admit its address");
});

test("a malformed allow entry is one clear error naming it", () => {
  for (const entry of ["", "a b", "10.0.0.0/33", "host:99999", "[nope]:80", "http://x/"]) {
    assert.throws(() => parseRule(entry), EgressConfigError, entry);
  }
});

test("fetch refuses at connection time, and re-checks a redirect's destination", async () => {
  const strict = createEgressPolicy();
  await assert.rejects(
    strict.fetch(`http://127.0.0.1:${port}/`),
    (error: Error & { cause?: { code?: string } }) => {
      assert.equal(error.cause?.code, "ERR_EGRESS_DENIED");
      return true;
    },
  );
  await assert.rejects(strict.fetch(`http://localhost:${port}/`), /fetch failed/);
  const allowed = createEgressPolicy({ allow: [`127.0.0.1:${port}`] });
  const response = await allowed.fetch(`http://127.0.0.1:${port}/hello`);
  assert.equal(await response.text(), "ok /hello");
  // 127.0.0.2 is loopback too, and not allowed: the redirect's connection is refused.
  await assert.rejects(allowed.fetch(`http://127.0.0.1:${port}/hop`), (error: Error & { cause?: Error }) => {
    assert.match(String(error.cause?.message), /127\.0\.0\.2 is not a public address/);
    return true;
  });
});

test("the connection goes to the address the check resolved, never to a second lookup", async () => {
  // A stand-in resolver: "rebind.test" is public on the first lookup and loopback on every later one, the
  // way a DNS-rebinding attacker answers; "pinned.test" exists only in this resolver, not in the system's.
  let lookups = 0;
  const policy = createEgressPolicy({
    allow: ["pinned.test"],
    resolve: async (host) => {
      if (host === "pinned.test") return ["127.0.0.1"];
      lookups++;
      return lookups === 1 ? ["8.8.8.8"] : ["127.0.0.1"];
    },
  });
  assert.equal((await policy.check(`http://rebind.test:${port}/`)).allowed, true);
  await assert.rejects(policy.fetch(`http://rebind.test:${port}/`), (error: Error & { cause?: Error }) => {
    assert.match(String(error.cause?.message), /rebind\.test resolves to 127\.0\.0\.1/);
    return true;
  });
  // Reaching the server proves the socket used the checked address: the system resolver knows no pinned.test.
  const response = await policy.fetch(`http://pinned.test:${port}/pinned`);
  assert.equal(await response.text(), "ok /pinned");
});
