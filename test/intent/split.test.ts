// How a request splits into its intents, and which parts refer back to the one before: "then" without a
// comma and ", plus" split only before a verb that starts a request; "in it" and "of it" refer back.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  primaryValue,
  referencedKind,
  refersBack,
  refersToPrevious,
  splitIntents,
  substituteReference,
} from "../../src/intent/index.ts";

const splits: [query: string, intents: string[]][] = [
  ["md5 of 'switch' then url encode 'a b'", ["md5 of 'switch'", "url encode 'a b'"]],
  [
    "add 30 days to 2025-02-10 then tell me what weekday that is",
    ["add 30 days to 2025-02-10", "tell me what weekday that is"],
  ],
  ["generate a UUID, plus tell me the sha256 of 'abc'", ["generate a UUID", "tell me the sha256 of 'abc'"]],
  // "then" inside one request, before no verb, does not split it.
  ["if the total is over 100 then 10% off", ["if the total is over 100 then 10% off"]],
  ["2 plus 3", ["2 plus 3"]],
  // The splits that were there stay.
  [
    "calculate 6*7, then convert that number to hexadecimal",
    ["calculate 6*7", "convert that number to hexadecimal"],
  ],
  ["days between 2024-01-01 and 2024-12-25", ["days between 2024-01-01 and 2024-12-25"]],
  // A list of numbers is one intent's values; a verb after the list still starts another.
  ["convert 5, 10 and 20 miles to km", ["convert 5, 10 and 20 miles to km"]],
  [
    "what's the average of 3, 5, 7 and what is 7 factorial",
    ["what's the average of 3, 5, 7", "what is 7 factorial"],
  ],
  [
    "convert 5 miles to km and 20 celsius to fahrenheit",
    ["convert 5 miles to km", "convert 20 celsius to fahrenheit"],
  ],
  // Quoted text is one value, whatever punctuation it holds.
  [
    'word count for this tagline: "Ship it today. Fix it tomorrow; regret it never."',
    ['word count for this tagline: "Ship it today. Fix it tomorrow; regret it never."'],
  ],
  // Quotes around the whole message are no value's.
  [
    '"What is the population of Canada, and what is the largest city in Brazil?"',
    ['"What is the population of Canada', 'what is the largest city in Brazil?"'],
  ],
  // A sentence that states what the next one asks about is its context.
  [
    "The receipt shows 59.80 and that includes 15% GST. What was the amount before GST?",
    ["The receipt shows 59.80 and that includes 15% GST. What was the amount before GST?"],
  ],
  [
    "API gateway log shows a bunch of 429s. What does 429 mean, and also explain the cron */10 * * * *",
    ["API gateway log shows a bunch of 429s. What does 429 mean", "explain the cron */10 * * * *"],
  ],
  // Statements of several things the request asks the same of are parts.
  [
    "The first object fell 10 m. The second fell 20 m. What is the final speed of both?",
    ["The first object fell 10 m", "The second fell 20 m", "What is the final speed of both?"],
  ],
  // A question ends its range: "from 1.19.4? and …" is no "from … and …".
  [
    "is 1.20.0 a breaking upgrade from 1.19.4? and what's 0o755 in decimal",
    ["is 1.20.0 a breaking upgrade from 1.19.4", "what's 0o755 in decimal"],
  ],
  [
    "Convert 'Order Total' to snake_case, and separately URL-encode size=M&color=navy blue",
    ["Convert 'Order Total' to snake_case", "URL-encode size=M&color=navy blue"],
  ],
  // A sentence that asks splits as before.
  ["Hash 'abc' with md5. Double 21.", ["Hash 'abc' with md5", "Double 21."]],
  // A sentence after a question that says why, or states a fact about it, is its context.
  [
    "what time's sunrise at our campsite on saturday? want to catch it",
    ["what time's sunrise at our campsite on saturday? want to catch it"],
  ],
  [
    "how many words is my cover letter? the portal caps it at 400",
    ["how many words is my cover letter? the portal caps it at 400"],
  ],
  // A question that only asks for the result of the part before it is no part of its own.
  [
    "sanity check for a formula: (1250 - 380) * 0.15 + 42. what does that come to?",
    ["sanity check for a formula: (1250 - 380) * 0.15 + 42. what does that come to?"],
  ],
  ["what is 12*7? how much is that in hex?", ["what is 12*7", "how much is that in hex?"]],
  // Lines pasted after a line that points to them are data, whatever their punctuation.
  [
    "Can you turn this into JSON records?\n\nsku;qty\nA-100;4",
    ["Can you turn this into JSON records?\n\nsku;qty\nA-100;4"],
  ],
  [
    "Extract every email from this message:\n\nHi, loop in a@x.io. b@y.io has the draft; thanks",
    ["Extract every email from this message:\n\nHi, loop in a@x.io. b@y.io has the draft; thanks"],
  ],
  // A question that only names another facet of the one before, with no verb of its own, is the same one;
  // so is a question after a statement whose subject is dropped ("found … in a column").
  [
    "The contract starts 3 Nov 2025 and ends 27 Feb 2026. How many calendar days is that, and how many weekdays?",
    [
      "The contract starts 3 Nov 2025 and ends 27 Feb 2026. How many calendar days is that, and how many weekdays?",
    ],
  ],
  [
    "found 1750000000 in a created_at column. what date/time is that in UTC, and which day of the week?",
    ["found 1750000000 in a created_at column. what date/time is that in UTC, and which day of the week?"],
  ],
  // So is a yes-or-no question about the same thing ("is it …"), read up to its own question mark.
  [
    "what does HTTP 503 mean and is it safe to retry? Also what UTC time is epoch 1761955200?",
    ["what does HTTP 503 mean and is it safe to retry", "what UTC time is epoch 1761955200?"],
  ],
  [
    "convert 5 miles to km and what time is it in Tokyo?",
    ["convert 5 miles to km", "what time is it in Tokyo?"],
  ],
  // A numbered list anywhere: a header before it that ends in a colon is dropped, other words are the
  // first item's context.
  [
    "Admin, three quick ones:\n1. word count of 'Spring hours'\n2. URL slug for 'Holiday Closures'",
    ["word count of 'Spring hours'", "URL slug for 'Holiday Closures'"],
  ],
  [
    "We're weighing a 45,000 loan at 7.25% over 5 years. 1) what's the monthly payment? 2) what is 1.5% of 45,000?",
    [
      "We're weighing a 45,000 loan at 7.25% over 5 years. what's the monthly payment?",
      "what is 1.5% of 45,000?",
    ],
  ],
  // A bulleted list under a header is one request per bullet; under a request, it is the request's data.
  [
    "release notes housekeeping:\n- slug for 'v4.2 Faster Sync'\n- sha256 of 'release-4.2.0'",
    ["slug for 'v4.2 Faster Sync'", "sha256 of 'release-4.2.0'"],
  ],
  [
    "extract the emails from these:\n- ann@example.com, sales\n- bob@example.org, ops",
    ["extract the emails from these:\n- ann@example.com, sales\n- bob@example.org, ops"],
  ],
  // Sentences that open a message of several requests by stating something are the first one's context.
  [
    "Load test results came back. Median of 212, 187, 240? Separately, what's 42 psi in bar?",
    ["Load test results came back. Median of 212, 187, 240", "Separately, what's 42 psi in bar?"],
  ],
  [
    "Reviewing the runbook. Explain the cron 0 22 * * 1-5. What is HTTP 422?",
    ["Reviewing the runbook. Explain the cron 0 22 * * 1-5", "What is HTTP 422?"],
  ],
  // A question whose mark the split took is no context, nor is a sentence with quoted text.
  [
    "If I leave 8,000 at 4.5% for 12 years, what's the final balance? Also what's (2^16 - 1) / 5",
    ["If I leave 8,000 at 4.5% for 12 years, what's the final balance", "what's (2^16 - 1) / 5"],
  ],
  // A statement after the request, values and all, is its context; so is one in the first person.
  [
    "How many words is my abstract? The conference caps it at 250 and the deadline is 11 June.",
    ["How many words is my abstract? The conference caps it at 250 and the deadline is 11 June."],
  ],
  [
    "convert the register value into hex. it's on line 88 of the dump",
    ["convert the register value into hex. it's on line 88 of the dump"],
  ],
  [
    "I just set a new 14-character password. How strong is it?",
    ["I just set a new 14-character password. How strong is it?"],
  ],
  // A sentence with a clause that asks is a request, whoever its subject.
  [
    "we owe 58.40 for lunch, add a 20% tip. convert 22°C to F",
    ["we owe 58.40 for lunch, add a 20% tip", "convert 22°C to F"],
  ],
  // A sentence that opens with "Then" asks more; one that says what the asker wants to do is context.
  [
    "is 1.2.0 newer than 1.1.9? Then kebab-case FooBarBaz",
    ["is 1.2.0 newer than 1.1.9", "Then kebab-case FooBarBaz"],
  ],
  [
    "what's the crc32 of 'fw.bin'? Want to check it against the vendor's.",
    ["what's the crc32 of 'fw.bin'? Want to check it against the vendor's."],
  ],
  // A line break inside quoted text starts no pasted data.
  [
    "Parse this CSV into JSON rows: \"a,b\n1,2\". Then, separately, hash 'x'",
    ['Parse this CSV into JSON rows: "a,b\n1,2"', "Then, separately, hash 'x'"],
  ],
  // An interjection is no part.
  [
    "which reads best on #1e90ff, black or white? oh and is 3.10.0 newer than 3.9.8",
    ["which reads best on #1e90ff, black or white", "is 3.10.0 newer than 3.9.8"],
  ],
  // One that asks for more, or uses the answer, is a request of its own.
  [
    "what's 12*12+5? After that, convert the result to binary.",
    ["what's 12*12+5", "After that, convert the result to binary."],
  ],
];

for (const [query, intents] of splits)
  test(`split: ${JSON.stringify(query)}`, () => {
    assert.deepEqual(splitIntents(query), intents);
  });

const references: [intent: string, value: unknown, resolved: string | undefined][] = [
  ["count the words in it", "hello world", 'count the words in "hello world"'],
  ["take 10% of it", 60, "take 10% of 60"],
  ["convert that number to hexadecimal", 42, "convert 42 to hexadecimal"],
  // "it" as the subject of a clause is not a reference to a result.
  ["what time is it in Tokyo", 3, undefined],
  // "that" opening a clause about the noun before it is no reference either.
  ["explain the cron */10 * * * * that our retry job uses", "x", undefined],
  ["the one that triggers the cache cleanup", "x", undefined],
  ["is that a leap year", 2024, "is 2024 a leap year"],
  ["plus the number of days from 2026-02-01 to 2026-07-04", 3, undefined],
  // A part that writes its own value after the word names it, not the previous result.
  ["the date 45 business days after 2025-09-01", 345, undefined],
];

for (const [intent, value, resolved] of references)
  test(`refers back: ${JSON.stringify(intent)}`, () => {
    assert.equal(refersBack(intent), resolved !== undefined);
    if (resolved !== undefined) assert.equal(substituteReference(intent, value), resolved);
  });

const ownOrPrevious: [intent: string, previous: boolean][] = [
  ["take 10% of that", true],
  ["what weekday is that date?", true],
  // A value stated before "is that" is the one asked about.
  ["our standup is at 09:30 on 2025-07-01, what time is that in Tokyo?", false],
  ["the log line has the timestamp 1767312000000, what's that in UTC?", false],
  ["then work out 10% of that", true],
  // So is one a remark after a comma is about.
  ["what's 40°F in celsius, that's the food-safety limit", false],
];

test("numbers under a label and a question about them with no value of its own are one request", () => {
  assert.deepEqual(
    splitIntents("fridge readings (°F): 36.5, 37.2, 38.1. what's the average? and what's 40°F in celsius"),
    ["fridge readings (°F): 36.5, 37.2, 38.1. what's the average", "what's 40°F in celsius"],
  );
});

for (const [intent, previous] of ownOrPrevious)
  test(`reference to the previous answer or to its own value: ${JSON.stringify(intent)}`, () => {
    assert.equal(refersToPrevious(intent), previous);
  });

test("a reference to a date takes the previous part's date, not its first number", () => {
  const output = { day_length_hours: 14.88, date: "2025-06-21" };
  assert.equal(
    primaryValue(output, { latitude: 38.72 }, referencedKind("what weekday is that date?")),
    "2025-06-21",
  );
  assert.equal(primaryValue({ result: 60 }, {}, referencedKind("take 10% of that")), 60);
});
