// A request that names another variant of what a tool does ("base32" to a base64 tool), on tools this test
// makes up: the call leaves that stated value out, so it is proposed, not run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { otherVariant } from "../../src/app/route-and-execute/other-variant.ts";
import type { Tool } from "../../src/catalog/index.ts";

const tool = (name: string, description: string): Tool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
});
const base64 = tool("base64_codec", "Encode text as Base64 or decode Base64 to text.");
const hash = tool("hash_text", "Hash text with md5, sha1, sha256 or sha512.");

test("a variant the tool names only with other numbers is another variant", () => {
  assert.equal(otherVariant("Encode the text otp-seed in base32", base64), "base32");
  assert.equal(otherVariant("the sha3 of 'abc'", hash), "sha3");
});

test("the tool's own variants, and numbers that name no variant, are none", () => {
  assert.equal(otherVariant("base64-encode hello", base64), undefined);
  assert.equal(otherVariant("sha256 of abc", hash), undefined);
  assert.equal(otherVariant("what date is 10 days after 2025-05-25", hash), undefined);
});

test("identifiers in the text the request works on are data, not variants it asks for", () => {
  const extract = tool("regex_extract", 'Finds every match, e.g. ticket ids like "PAY-123".');
  assert.equal(otherVariant("ticket ids like PAY-123 in 'closed PAY-101 and PAY-2045'", extract), undefined);
  assert.equal(otherVariant("ticket ids in:\nPAY-101 closed\nPAY-2045 open", extract), undefined);
  assert.equal(otherVariant("only the PAY-101 ones from 'x'", extract), "pay101");
});
