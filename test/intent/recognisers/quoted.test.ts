// Quoted text in its four quote styles; an apostrophe inside a word opens nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findQuoted } from "../../../src/intent/recognisers/quoted.ts";

const cases: [string, string[]][] = [
  [`md5 of "hello"`, ["hello"]],
  ["sha1 of 'abc'", ["abc"]],
  ["slugify “Hello World”", ["Hello World"]],
  ["run `ls -la`", ["ls -la"]],
  ["what's the user's name", []],
  [`"a" and 'b'`, ["a", "b"]],
];

for (const [text, expected] of cases)
  test(`quoted text in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findQuoted(text).map((q) => q.text),
      expected,
    );
  });
