// Opaque values (emails, URLs) to the parameters whose names say they take them, on schemas this test makes
// up: a name's words count whatever joins them ("candidate_email"), the word before a value picks among
// several takers, and a list parameter takes every value it is given.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fillArguments, findOpaqueValues, routingText } from "../../src/intent/index.ts";

const str = { type: "string" };
const strings = { type: "array", items: { type: "string" } };
const cases: {
  name: string;
  query: string;
  properties: Record<string, unknown>;
  expect: Record<string, unknown>;
}[] = [
  {
    name: "an email to a parameter named for one, with a word before it",
    query: "invite jane.doe@mail.com to the call",
    properties: { candidate_email: str },
    expect: { candidate_email: "jane.doe@mail.com" },
  },
  {
    name: "the word before each email picks its parameter; the list takes the rest",
    query: "with interviewers sam@corp.io and lee@corp.io, for candidate jane@mail.com",
    properties: { candidate_email: str, interviewer_emails: strings },
    expect: { candidate_email: "jane@mail.com", interviewer_emails: ["sam@corp.io", "lee@corp.io"] },
  },
  {
    name: "a camel-case name",
    query: "notify ops@corp.io",
    properties: { notifyEmail: str },
    expect: { notifyEmail: "ops@corp.io" },
  },
  {
    name: "a URL to a parameter whose words name one",
    query: "check https://example.com/health every minute",
    properties: { target_url: str },
    expect: { target_url: "https://example.com/health" },
  },
];

for (const c of cases)
  test(c.name, () => {
    const filled = fillArguments(c.query, { type: "object", properties: c.properties });
    assert.deepEqual(filled.arguments, c.expect);
    for (const v of filled.filled) assert.equal(v.evidence, "opaque", v.field);
  });

const kinds: [text: string, found: [kind: string, value: string][]][] = [
  ["usable hosts of 192.168.40.0/22", [["ip", "192.168.40.0/22"]]],
  ["where is 8.8.8.8 located?", [["ip", "8.8.8.8"]]],
  // Not an address: an octet over 255, a fifth part, a version.
  ["ping 300.1.1.1", []],
  ["upgrade to 1.2.3.4.5", []],
  ["release 2.10.3", []],
];

for (const [text, found] of kinds)
  test(`opaque values in ${JSON.stringify(text)}`, () => {
    assert.deepEqual(
      findOpaqueValues(text).map((o) => [o.kind, o.value]),
      found,
    );
  });

test("an address or block to a parameter named for one, and out of the routing text", () => {
  const query = "Give me the broadcast address of 192.168.40.0/22.";
  const filled = fillArguments(query, { type: "object", properties: { cidr: str }, required: ["cidr"] });
  assert.deepEqual(filled.arguments, { cidr: "192.168.40.0/22" });
  assert.equal(routingText(query, findOpaqueValues(query)), "Give me the broadcast address of ip address.");
});

test("a word the request names as such is text, unquoted", () => {
  const digest = {
    type: "object",
    properties: { text: { type: "string" }, algorithm: { type: "string", enum: ["md5", "sha256"] } },
    required: ["text"],
  };
  assert.equal(
    fillArguments("the MD5 digest of the word switchboard (lowercase)", digest).arguments.text,
    "switchboard",
  );
  assert.equal(fillArguments("sha256 of the string ok-to-merge.", digest).arguments.text, "ok-to-merge");
  assert.equal(fillArguments("the md5 of a word", digest).arguments.text, undefined);
});

test("a hash goes to a parameter that names a hash, not to free text", () => {
  const digest = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  const lookup = { type: "object", properties: { hash: { type: "string" } }, required: ["hash"] };
  const hash = "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8";
  assert.equal(fillArguments(`reverse this sha-256: ${hash}`, digest).arguments.text, undefined);
  assert.equal(fillArguments(`look up ${hash}`, lookup).arguments.hash, hash);
});

test("a password written out unquoted is the one word of letters with digits or symbols", () => {
  const strength = { type: "object", properties: { password: { type: "string" } }, required: ["password"] };
  const cases: [request: string, password: string | undefined][] = [
    ["is qwerty2024! good enough as the office wifi password?", "qwerty2024!"],
    ["signup form: a user picked Dragon1987 as their password. rate it", "Dragon1987"],
    ["how strong is my password?", undefined],
    // Two candidates: which one is not said.
    ["is abc123 or xyz789 the better password?", undefined],
    // Numbers with units and dates, compounds and short codes are no passwords.
    ["generate a random 20-character password", undefined],
    ["hash my password with sha256", undefined],
    ["a password of 12 characters set on 2024-01-01", undefined],
  ];
  for (const [request, password] of cases)
    assert.equal(fillArguments(request, strength).arguments.password, password, request);
});

test("an email goes to a parameter described as email addresses, not to one about an email", () => {
  const mail = {
    type: "object",
    properties: {
      to: { type: "array", items: { type: "string" }, description: "Recipient email addresses." },
      subject: { type: "string", description: "Subject of the email." },
      cc: { type: "array", items: { type: "string" }, description: "CC email addresses." },
    },
    required: ["to", "subject"],
  };
  const fill = fillArguments(
    'email priya@fintrack.co, subject "Invoice 2291", cc accounting@fintrack.co',
    mail,
  );
  assert.deepEqual(fill.arguments.to, ["priya@fintrack.co"]);
  assert.deepEqual(fill.arguments.cc, ["accounting@fintrack.co"]);
  assert.equal(fill.arguments.subject, "Invoice 2291");
});

test("a phone number goes to a phone parameter, written as E.164", () => {
  const sms = {
    type: "object",
    properties: {
      to_number: { type: "string", description: "Recipient phone number in E.164 format." },
      message: { type: "string" },
    },
    required: ["to_number", "message"],
  };
  const fill = fillArguments("text +1 415 555 0199 'running 10 min late, sorry!'", sms);
  assert.equal(fill.arguments.to_number, "+14155550199");
  assert.equal(fill.arguments.message, "running 10 min late, sorry!");
  assert.deepEqual(
    findOpaqueValues("call (415) 555-0199 or +44 20 7946 0958, not order 112-8843021").map((o) => [
      o.kind,
      o.value,
    ]),
    [
      ["phone", "(415) 555-0199"],
      ["phone", "+44 20 7946 0958"],
    ],
  );
});

test("an American Express number grouped four, six and five is a card number", () => {
  assert.deepEqual(
    findOpaqueValues("does the Amex test number 3782 822463 10005 pass validation").map((o) => o.kind),
    ["card_number"],
  );
});

test("a grouped IBAN goes without its spaces to a pattern that has none", () => {
  const properties = { iban: { type: "string", pattern: "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$" } };
  const schema = { type: "object", properties, required: ["iban"] };
  assert.equal(
    fillArguments("is GB33 BUKB 2020 1555 5555 55 valid?", schema).arguments.iban,
    "GB33BUKB20201555555555",
  );
});

test("the one email no parameter takes is the text to work on, as weak as quoted text", () => {
  const schema = { type: "object", properties: { text: str }, required: ["text"] };
  const fill = fillArguments("base64 encode ops-bot@acme.dev", schema);
  assert.equal(fill.arguments.text, "ops-bot@acme.dev");
  assert.equal(fill.filled[0]?.evidence, "quoted");
  // A URL is more often a page to act on than text to transform.
  assert.equal(
    fillArguments("make a QR code for https://shop.example.com/promo", schema).arguments.text,
    undefined,
  );
});
