// The egress check the browser's proxy applies to every connection: non-public addresses are refused
// unless the operator allowed them (host, host:port, CIDR); names are judged by what they resolve to.
import assert from "node:assert/strict";
import { test } from "node:test";
import { egressRulesFrom } from "../../src/browser/index.ts";

test("public addresses pass; loopback, private, link-local and mapped forms are refused by default", async () => {
  const rules = egressRulesFrom(undefined);
  assert.deepEqual(await rules.check("https://93.184.216.34/"), { allowed: true, address: "93.184.216.34" });
  for (const url of [
    "http://127.0.0.1:8080/",
    "http://10.1.2.3/",
    "http://169.254.169.254/latest/meta-data/",
    "http://192.168.0.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
    "http://localhost/",
  ]) {
    const verdict = await rules.check(url);
    assert.equal(verdict.allowed, false, url);
    assert.match(
      verdict.allowed ? "" : verdict.reason,
      /loopback, private or link-local|does not resolve/,
      url,
    );
  }
  assert.deepEqual(await rules.check("file:///etc/passwd"), {
    allowed: false,
    reason: "file: URLs cannot leave",
  });
});

test("the operator's list admits a host, a host:port pair or a CIDR range, and nothing beside them", async () => {
  const rules = egressRulesFrom("localhost:8080, 10.0.0.0/8, 192.168.1.7");
  assert.equal((await rules.check("http://localhost:8080/")).allowed, true);
  assert.equal((await rules.check("http://localhost:8081/")).allowed, false);
  assert.equal((await rules.check("http://10.200.0.1/")).allowed, true);
  assert.equal((await rules.check("http://11.0.0.1/")).allowed, true, "public anyway");
  assert.equal((await rules.check("http://192.168.1.7:9000/")).allowed, true);
  assert.equal((await rules.check("http://192.168.1.8/")).allowed, false);
});
