// Every offline tool of the bundled catalog, run through the real isolated-vm sandbox on inputs whose
// answers are known independently (published test vectors, coreutils, Python's datetime), and on bad input.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadCatalog, type Tool, validateAgainstSchema } from "../../src/catalog/index.ts";
import { Sandbox } from "../../src/synth/index.ts";

const tools = await loadCatalog(join(import.meta.dirname, "../../catalog"));
const sandbox = new Sandbox();
after(() => sandbox.close());

async function run(name: string, args: unknown): Promise<Record<string, unknown>> {
  const tool = tools.find((t) => t.name === name) as Tool;
  assert.ok(tool?.binding?.type === "sandbox" && tool.binding.file, `${name} is not a sandboxed tool`);
  const code = await readFile(tool.binding.file, "utf8");
  const { value } = await sandbox.run({
    code,
    name,
    args,
    capabilities: tool.binding.capabilities,
    timeoutMs: 5000,
  });
  assert.deepEqual(
    validateAgainstSchema(tool.outputSchema ?? { type: "object" }, value),
    [],
    `${name} output breaks its outputSchema`,
  );
  return value as Record<string, unknown>;
}

async function rejects(name: string, args: unknown, message: RegExp) {
  await assert.rejects(run(name, args), (error: Error) => {
    assert.match(error.message, message);
    return true;
  });
}

// [tool, arguments, fields the answer must contain]
const known: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ["calculate", { expression: "2 + 3 * 4" }, { result: 14 }],
  ["calculate", { expression: "(1 + 2)^2 / 3 - sqrt(16)" }, { result: -1 }],
  ["calculate", { expression: "0.1 + 0.2" }, { result: 0.3 }],
  ["calculate", { expression: "2^3^2" }, { result: 512 }],
  ["calculate", { expression: "5! / max(2, 3)" }, { result: 40 }],
  ["convert_units", { value: 100, from: "°F", to: "C" }, { result: 37.7777777778, category: "temperature" }],
  ["convert_units", { value: 26.2, from: "miles", to: "km" }, { result: 42.1648128 }],
  ["convert_units", { value: 1, from: "GiB", to: "MB" }, { result: 1073.741824 }],
  ["convert_units", { value: 68, from: "deg F", to: "celsius" }, { result: 20, category: "temperature" }],
  [
    "hash_text",
    { text: "abc" },
    { hex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", bytes: 3 },
  ],
  [
    "hash_text",
    { text: "", algorithm: "sha256" },
    { hex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
  ],
  ["hash_text", { text: "abc", algorithm: "md5" }, { hex: "900150983cd24fb0d6963f7d28e17f72" }],
  ["hash_text", { text: "abc", algorithm: "sha1" }, { hex: "a9993e364706816aba3e25717850c26c9cd0d89d" }],
  ["hash_text", { text: "123456789", algorithm: "crc32" }, { hex: "cbf43926" }],
  ["hash_text", { text: "héllo ✓", algorithm: "md5" }, { bytes: 10 }],
  ["base64_codec", { action: "encode", text: "héllo ✓" }, { result: "aMOpbGxvIOKckw==" }],
  ["base64_codec", { action: "decode", text: "aGVsbG8gd29ybGQ=" }, { result: "hello world" }],
  ["base64_codec", { action: "encode", text: "??>", url_safe: true }, { result: "Pz8-" }],
  ["url_codec", { action: "encode", text: "a b&c=d/é" }, { result: "a%20b%26c%3Dd%2F%C3%A9" }],
  ["url_codec", { action: "decode", text: "caf%C3%A9+au+lait" }, { result: "café au lait" }],
  ["slugify", { text: "  Crème Brûlée & Straße — 10 Tips!  " }, { slug: "creme-brulee-and-strasse-10-tips" }],
  ["convert_case", { text: "parseHTTPResponse", to: "snake" }, { result: "parse_http_response" }],
  ["convert_case", { text: "user account id", to: "camel" }, { result: "userAccountId" }],
  [
    "text_statistics",
    { text: "The cat sat. The dog ran!\n\nBye now.", top_words: 2 },
    { words: 8, sentences: 3, paragraphs: 2 },
  ],
  [
    "csv_to_json",
    { csv: 'name,age\n"Smith, J",42\nAnn,' },
    {
      row_count: 2,
      rows: [
        { name: "Smith, J", age: 42 },
        { name: "Ann", age: null },
      ],
    },
  ],
  [
    "json_query",
    {
      json: '{"items":[{"id":1,"s":"open"},{"id":2,"s":"done"},{"id":3,"s":"open"}]}',
      path: 'items[?s=="open"].id',
    },
    { found: true, result: [1, 3] },
  ],
  ["json_query", { data: { a: { b: [10, 20, 30] } }, path: "a.b[-1]" }, { found: true, result: 30 }],
  ["json_query", { data: { a: 1 }, path: "a.missing" }, { found: false, result: null }],
  [
    "semver_compare",
    { a: "1.0.0-alpha.1", b: "1.0.0" },
    { comparison: -1, difference: "prerelease", newer: "1.0.0" },
  ],
  ["semver_compare", { a: "2.10.0", b: "2.9.3" }, { comparison: 1, difference: "minor", breaking: false }],
  ["color_convert", { color: "#ff8800" }, { rgb: { r: 255, g: 136, b: 0 }, hsl: { h: 32, s: 100, l: 50 } }],
  ["color_convert", { color: "hsl(210, 100%, 50%)" }, { hex: "#0080ff" }],
  ["http_status_lookup", { code: 429 }, { name: "Too Many Requests", retryable: true }],
  ["date_difference", { start: "2024-01-01", end: "2024-12-25" }, { days: 359, business_days: 257 }],
  ["date_difference", { start: "2025-03-15", end: "2023-01-20" }, { days: -785, business_days: -561 }],
  [
    "date_add",
    { date: "2024-01-31", amount: 1, unit: "months" },
    { date: "2024-02-29", weekday: "Thursday" },
  ],
  ["date_add", { date: "2024-11-29", amount: 3, unit: "business_days" }, { date: "2024-12-04" }],
  ["date_info", { date: "1969-07-20" }, { weekday: "Sunday" }],
  ["date_info", { date: "2021-01-03" }, { iso_week: 53, iso_week_year: 2020 }],
  ["date_info", { date: "2024-12-30" }, { iso_week: 1, iso_week_year: 2025, is_leap_year: true }],
  [
    "convert_timezone",
    { time: "2024-07-01 15:00", from_zone: "New York", to_zone: "Asia/Tokyo" },
    { utc: "2024-07-01T19:00:00Z", difference_hours: 13 },
  ],
  ["convert_timezone", { time: "2024-01-15T12:00:00Z", to_zone: "Asia/Kolkata" }, { difference_hours: 5.5 }],
  [
    "explain_cron",
    { expression: "0 9 * * 1-5", from: "2024-01-05T10:00:00Z", next: 2 },
    {
      description: "At 09:00, on Monday through Friday",
      next_runs_utc: ["2024-01-08T09:00Z", "2024-01-09T09:00Z"],
    },
  ],
  ["unix_timestamp", { timestamp: 1700000000 }, { iso_utc: "2023-11-14T22:13:20.000Z", read_as: "seconds" }],
  ["unix_timestamp", { datetime: "2024-02-29 12:00" }, { seconds: 1709208000 }],
  [
    "loan_payment",
    { principal: 200000, annual_rate_percent: 6, years: 30 },
    { monthly_payment: 1199.1, months: 360 },
  ],
  [
    "compound_interest",
    { principal: 1000, annual_rate_percent: 5, years: 10, compounds_per_year: 1 },
    { final_balance: 1628.89 },
  ],
  ["calculate_tip", { bill: 100, tip_percent: 18, people: 3 }, { total: 118, shares: [39.34, 39.33, 39.33] }],
  ["percentage", { operation: "percent_change", a: 80, b: 100 }, { result: 25 }],
  ["percentage", { operation: "reverse_increase", a: 20, b: 120 }, { result: 100 }],
  [
    "statistics_summary",
    { numbers: [2, 4, 4, 4, 5, 5, 7, 9] },
    { mean: 5, median: 4.5, modes: [4], population_stdev: 2 },
  ],
  [
    "convert_number_base",
    { value: "0xff" },
    { results: { "2": "11111111", "8": "377", "10": "255", "16": "ff" } },
  ],
  [
    "convert_number_base",
    { value: "12345678901234567890123", to_bases: [16] },
    { results: { "16": "29d42b64e76714244cb" } },
  ],
  ["validate_card_number", { number: "4539 1488 0343 6467" }, { valid: true, brand: "Visa" }],
  ["validate_card_number", { number: "378282246310005" }, { valid: true, brand: "American Express" }],
  ["validate_card_number", { number: "4111111111111112" }, { valid: false, luhn_valid: false }],
  ["validate_iban", { iban: "GB82 WEST 1234 5698 7654 32" }, { valid: true, country: "GB" }],
  ["validate_iban", { iban: "DE89370400440532013001" }, { valid: false }],
  // timeanddate.com: London 2024-06-21 sunrise 04:43, sunset 21:21 BST; Longyearbyen has midnight sun.
  [
    "sunrise_sunset",
    { latitude: 51.5074, longitude: -0.1278, date: "2024-06-21", timezone: "Europe/London" },
    { sunrise: { utc: "2024-06-21T03:43Z", local: "04:43" }, day_length_hours: 16.64 },
  ],
  [
    "sunrise_sunset",
    { latitude: 78.22, longitude: 15.65, date: "2024-06-21" },
    { sunrise: null, day_length_hours: 24 },
  ],
  ["check_password_strength", { password: "password" }, { score: 0 }],
  ["check_password_strength", { password: "correct horse battery staple" }, { score: 4 }],
];

for (const [name, args, expected] of known) {
  test(`${name} ${JSON.stringify(args).slice(0, 70)}`, async () => {
    const value = await run(name, args);
    for (const [key, want] of Object.entries(expected)) assert.deepEqual(value[key], want, `${name}.${key}`);
  });
}

test("generate_uuid gives distinct version-4 UUIDs", async () => {
  const value = await run("generate_uuid", { count: 20 });
  const uuids = value.uuids as string[];
  assert.equal(new Set(uuids).size, 20);
});

test("current_time finds a zone by city and tells the time there now", async () => {
  const value = await run("current_time", { timezone: "Tokyo" });
  assert.equal(value.zone, "Asia/Tokyo");
  assert.equal(value.utc_offset, "+09:00");
  assert.ok(Math.abs((value.unix as number) - Date.now() / 1000) < 60, `unix ${value.unix}`);
  const tokyo = new Date((value.unix as number) * 1000 + 9 * 3600 * 1000)
    .toISOString()
    .slice(0, 16)
    .replace("T", " ");
  assert.equal((value.local as string).slice(0, 16), tokyo);
});

test("jwt_decode reads the claims and never claims to have verified the signature", async () => {
  const token =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
  const value = await run("jwt_decode", { token });
  assert.deepEqual(value.payload, { sub: "1234567890", name: "John Doe", iat: 1516239022 });
  assert.equal(value.issued_at, "2018-01-18T01:30:22.000Z");
  assert.equal(value.signature_verified, false);
});

test("csv_to_json counts every row but returns at most max_rows", async () => {
  const value = await run("csv_to_json", { csv: "n\n1\n2\n3\n4\n5", max_rows: 2 });
  assert.deepEqual(
    { row_count: value.row_count, truncated: value.truncated, rows: value.rows },
    { row_count: 5, truncated: true, rows: [{ n: 1 }, { n: 2 }] },
  );
});

test("regex_extract returns positions and named groups, and caps the matches", async () => {
  const value = await run("regex_extract", {
    text: "mail a@b.com or c.d@e.org",
    pattern: "(?<user>[\\w.]+)@([\\w.]+)",
    max_matches: 1,
  });
  assert.equal(value.count, 1);
  assert.equal(value.truncated, true);
  assert.deepEqual(value.matches, [
    { match: "a@b.com", index: 5, groups: ["a", "b.com"], named: { user: "a" } },
  ]);
});

// [tool, bad arguments, what the error must say]
const bad: [string, Record<string, unknown>, RegExp][] = [
  ["calculate", { expression: "2 + $3" }, /unexpected character "\$" at position 5/],
  ["calculate", { expression: "1 / (2 - 2)" }, /division by zero/],
  ["calculate", { expression: "foo(2)" }, /unknown name "foo"/],
  ["convert_units", { value: 1, from: "kg", to: "km" }, /cannot convert mass \(kg\) to length \(km\)/],
  ["convert_units", { value: -500, from: "C", to: "F" }, /below absolute zero/],
  ["hash_text", { text: "x", algorithm: "sha512" }, /algorithm must be one of/],
  ["base64_codec", { action: "decode", text: "ab$c" }, /not base64/],
  ["url_codec", { action: "decode", text: "100%" }, /malformed percent-encoding/],
  ["regex_extract", { text: "x", pattern: "(ab" }, /invalid regular expression/],
  ["regex_extract", { text: "x".repeat(200_001), pattern: "x" }, /longer than 200,000/],
  ["csv_to_json", { csv: 'a,b\n"1,2' }, /unterminated quoted field/],
  ["json_query", { json: "{bad", path: "a" }, /json is not valid JSON/],
  ["semver_compare", { a: "1.2", b: "1.0.0" }, /a: "1.2" is not a semantic version/],
  ["jwt_decode", { token: "abc.def" }, /3 dot-separated parts/],
  ["color_convert", { color: "#zz" }, /unrecognised colour/],
  [
    "date_difference",
    { start: "2024-02-30", end: "2024-03-01" },
    /start: 2024-02-30 is not a real calendar date/,
  ],
  ["date_add", { date: "2024-01-01", amount: 1, unit: "fortnights" }, /unit must be one of/],
  [
    "convert_timezone",
    { time: "15:00", from_zone: "Mars/Base", to_zone: "UTC" },
    /from_zone: unknown time zone "Mars\/Base"/,
  ],
  ["current_time", { timezone: "Atlantis" }, /unknown time zone "Atlantis"/],
  ["explain_cron", { expression: "61 * * * *" }, /minute field: 61 is outside 0-59/],
  ["explain_cron", { expression: "* * *" }, /has 5 fields/],
  ["unix_timestamp", { datetime: "yesterday" }, /cannot read "yesterday"/],
  ["loan_payment", { principal: 1000, annual_rate_percent: 5 }, /give the term as years or months/],
  ["statistics_summary", { numbers: [1, "two", 3] }, /numbers\[1\] is not a finite number/],
  ["convert_number_base", { value: "102", from_base: 2 }, /"2" at position 3 is not a base-2 digit/],
  ["validate_card_number", { number: "4111-1111-abcd" }, /only digits, spaces and dashes/],
  ["validate_iban", { iban: "12345" }, /2-letter country code/],
  ["http_status_lookup", { code: 99 }, /from 100 to 599/],
  ["sunrise_sunset", { latitude: 95, longitude: 0 }, /latitude must be a number from -90 to 90/],
  ["percentage", { operation: "what_percent", a: 5, b: 0 }, /b must not be 0/],
];

for (const [name, args, message] of bad) {
  test(`${name} refuses ${JSON.stringify(args).slice(0, 60)} with a clear error`, () =>
    rejects(name, args, message));
}
