// Arguments from the request's words, driven only by a schema: typed values with their spans, opaque values
// out of the routing text, "missing" instead of a default, and intents split with references resolved.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  fillArguments,
  findOpaqueValues,
  primaryValue,
  routingText,
  splitIntents,
  substituteReference,
} from "../../src/intent/index.ts";
import { scaled } from "../load-factor.ts";
import { schema, str } from "./made-up-schemas.ts";

const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

test("a JWT is taken out of the routing text and fills the token parameter, with its span", () => {
  const query = `decode this jwt ${JWT}`;
  const opaque = findOpaqueValues(query);
  assert.deepEqual(
    opaque.map((o) => o.kind),
    ["jwt"],
  );
  assert.equal(routingText(query, opaque), "decode this jwt jwt");
  const filled = fillArguments(query, {
    type: "object",
    properties: { token: { type: "string" } },
    required: ["token"],
  });
  assert.deepEqual(filled.arguments, { token: JWT });
  assert.deepEqual(filled.filled[0]?.span, { start: 16, end: 16 + JWT.length, text: JWT });
  assert.deepEqual(filled.placedOpaque, ["jwt"]);
});

test("numbers go by their cue: a percentage to the rate, '<n> years' to years, the rest in schema order", () => {
  const schema = {
    type: "object",
    properties: {
      principal: { type: "number" },
      annual_rate_percent: { type: "number" },
      years: { type: "number" },
    },
    required: ["principal", "annual_rate_percent", "years"],
  };
  const { arguments: args, missing } = fillArguments(
    "monthly payment on a 300k loan at 6.5% for 30 years",
    schema,
  );
  assert.deepEqual(args, { annual_rate_percent: 6.5, years: 30, principal: 300000 });
  assert.deepEqual(missing, []);
});

test("enum values named in the text, quoted strings and dates in order", () => {
  const hash = fillArguments("md5 of 'hello'", {
    type: "object",
    properties: { text: { type: "string" }, algorithm: { type: "string", enum: ["sha256", "md5"] } },
    required: ["text"],
  });
  assert.deepEqual(hash.arguments, { algorithm: "md5", text: "hello" });
  const pattern = "^(\\d{4}-\\d{2}-\\d{2}|today)$";
  const days = fillArguments("days between 2024-01-01 and 2024-12-25", {
    type: "object",
    properties: { start: { type: "string", pattern }, end: { type: "string", pattern } },
    required: ["start", "end"],
  });
  assert.deepEqual(days.arguments, { start: "2024-01-01", end: "2024-12-25" });
});

test("a city names its IANA zone; a place no zone matches is missing, never the default", () => {
  const schema = { type: "object", properties: { timezone: { type: "string", default: "UTC" } } };
  assert.deepEqual(fillArguments("what time is it in New York", schema).arguments, {
    timezone: "America/New_York",
  });
  const atlantis = fillArguments("what time is it in Atlantis", schema);
  assert.deepEqual(atlantis.arguments, {});
  assert.equal(atlantis.missing[0]?.field, "timezone");
  assert.match(atlantis.missing[0]?.reason ?? "", /Atlantis/);
});

test("a required value the request does not give is missing; supplied arguments are kept", () => {
  const schema = { type: "object", properties: { token: { type: "string" } }, required: ["token"] };
  assert.deepEqual(
    fillArguments("decode this jwt", schema).missing.map((m) => m.field),
    ["token"],
  );
  const supplied = fillArguments("decode this jwt", schema, { token: "x.y.z" });
  assert.deepEqual(supplied.missing, []);
  assert.equal(supplied.filled[0]?.source, "agent");
});

test("units: '<n> <unit> to <unit>' and 'how many <unit> is <n> <unit>'", () => {
  const schema = {
    type: "object",
    properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
    required: ["value", "from", "to"],
  };
  assert.deepEqual(fillArguments("convert 100 km to miles", schema).arguments, {
    value: 100,
    from: "km",
    to: "miles",
  });
  assert.deepEqual(fillArguments("how many feet is 3 metres", schema).arguments, {
    value: 3,
    from: "metres",
    to: "feet",
  });
});

test("intents split on 'and then', ', then', '?' and a second verb, not inside 'between A and B'", () => {
  assert.deepEqual(splitIntents("convert 10 km to metres, then give that number in binary"), [
    "convert 10 km to metres",
    "give that number in binary",
  ]);
  assert.deepEqual(splitIntents("what time is it in Tokyo and in London"), [
    "what time is it in Tokyo",
    "what time is it in London",
  ]);
  assert.deepEqual(splitIntents("days between 2024-01-01 and 2024-12-25"), [
    "days between 2024-01-01 and 2024-12-25",
  ]);
  assert.equal(substituteReference("give that number in binary", 10000), "give 10000 in binary");
  assert.equal(
    primaryValue({ start: "2024-05-01", amount: 10, date: "2024-05-11" }, { date: "2024-05-01", amount: 10 }),
    "2024-05-11",
  );
});

const UNITS = {
  type: "object",
  properties: { value: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
  required: ["value", "from", "to"],
};

test("units keep to the unit's words: qualifiers, trailing words and a target named at the end", () => {
  assert.deepEqual(fillArguments("convert 350 F to C please, oven recipe", UNITS).arguments, {
    value: 350,
    from: "F",
    to: "C",
  });
  assert.deepEqual(fillArguments("how many litres are in 5 US gallons?", UNITS).arguments, {
    value: 5,
    from: "US gallons",
    to: "litres",
  });
  assert.deepEqual(fillArguments("I'm 6 ft tall, what's that in centimeters", UNITS).arguments, {
    value: 6,
    from: "ft",
    to: "centimeters",
  });
});

test("a date with a time is one value, and its digits are no number", () => {
  const filled = fillArguments("epoch seconds for 2021-01-01T00:00:00Z", {
    type: "object",
    properties: { timestamp: { type: "number" }, datetime: { type: "string" } },
  });
  assert.deepEqual(filled.arguments, { datetime: "2021-01-01T00:00:00Z" });
  const wall = fillArguments("convert 2024-01-15 14:00 Tokyo time to London time", {
    type: "object",
    properties: { time: { type: "string" }, from_zone: { type: "string" }, to_zone: { type: "string" } },
    required: ["time", "to_zone"],
  });
  assert.deepEqual(wall.arguments, {
    time: "2024-01-15 14:00",
    from_zone: "Asia/Tokyo",
    to_zone: "Europe/London",
  });
});

const TIP = {
  type: "object",
  properties: {
    bill: { type: "number" },
    tip_percent: { type: "number", default: 15 },
    people: { type: "integer", minimum: 1, default: 1 },
  },
  required: ["bill"],
};

/** How a made-up tip tool's values are phrased: its example calls teach the words around each value. */
const TIP_EXAMPLES = {
  examples: [
    { query: "split a 90 dinner 4 ways", arguments: { bill: 90, people: 4 } },
    { query: "a 15% tip on 60 between 3 of us", arguments: { bill: 60, tip_percent: 15, people: 3 } },
  ],
};

test("counted people go to the people parameter, as the examples phrase them; a stray number is asked about", () => {
  // Without examples nothing says what "3 ways" is: it is asked about, never put in by its order.
  assert.deepEqual(
    fillArguments("split a 120 bill 3 ways with a 20% tip", TIP).missing.map((m) => m.field),
    ["people"],
  );
  assert.deepEqual(fillArguments("split a 120 bill 3 ways with a 20% tip", TIP, {}, TIP_EXAMPLES).arguments, {
    bill: 120,
    people: 3,
    tip_percent: 20,
  });
  const between = fillArguments("split the bill between 4 of us with a 15% tip", TIP, {}, TIP_EXAMPLES);
  assert.deepEqual(
    between.missing.map((m) => m.field),
    ["bill"],
  );
  const stray = fillArguments("the bill is 80 and we are 3", TIP, {}, TIP_EXAMPLES);
  assert.equal(stray.arguments.bill, 80);
  assert.deepEqual(
    stray.missing.map((m) => m.field),
    ["tip_percent"],
  );
});

test("an enum value is not taken when another value's word is named too, or a short word only starts one", () => {
  const schema = {
    type: "object",
    properties: {
      operation: { type: "string", enum: ["percent_of", "what_percent", "percent_change", "increase_by"] },
      a: { type: "number" },
      b: { type: "number" },
    },
    required: ["operation", "a", "b"],
  };
  const field = (q: string) => fillArguments(q, schema).arguments.operation;
  assert.equal(field("what is 15% of 80"), "percent_of");
  assert.equal(field("increase 200 by 15%"), "increase_by");
  assert.equal(field("it went from 50 to 65, what percent increase is that"), undefined);
  assert.equal(field("take 25% off a price of 80"), undefined);
});

test("a place the request only points at is missing, not the default zone; accents do not hide a city", () => {
  const schema = { type: "object", properties: { timezone: { type: "string", default: "UTC" } } };
  assert.deepEqual(
    fillArguments("what's the local time where the customer lives?", schema).missing.map((m) => m.field),
    ["timezone"],
  );
  assert.deepEqual(fillArguments("current local time in São Paulo please", schema).arguments, {
    timezone: "America/Sao_Paulo",
  });
});

test("an identifier or escaped text is the text to work on; a percentage among numbers is no data point", () => {
  const schema = {
    type: "object",
    properties: { text: { type: "string" }, to: { type: "string", enum: ["camel", "snake"] } },
    required: ["text", "to"],
  };
  assert.deepEqual(fillArguments("convert myVariableName to snake_case", schema).arguments, {
    to: "snake",
    text: "myVariableName",
  });
  const list = fillArguments("what is 12.5% of 480", {
    type: "object",
    properties: { numbers: { type: "array", items: { type: "number" } } },
    required: ["numbers"],
  });
  assert.deepEqual(
    list.missing.map((m) => m.field),
    ["numbers"],
  );
  // Nor is a part of a whole ("43 out of 50").
  const part = fillArguments("got 43 out of 50 on the quiz, what's that as a percentage", {
    type: "object",
    properties: { numbers: { type: "array", items: { type: "number" } } },
    required: ["numbers"],
  });
  assert.equal(part.arguments.numbers, undefined);
});

test("two quoted values joined by 'and' are two intents; 'make it' refers back", () => {
  assert.deepEqual(splitIntents("base64 encode 'abc' and sha256 hash 'abc'"), [
    "base64 encode 'abc'",
    "sha256 hash 'abc'",
  ]);
  assert.equal(substituteReference("make it upper case", "café"), 'make "café" upper case');
});

test("dates: a date only pointed at is missing; 'before' and 'ago' count back; a singular names a plural", () => {
  const schema = {
    type: "object",
    properties: {
      date: { type: "string", pattern: "^(\\d{4}-\\d{2}-\\d{2}|today)$", default: "today" },
      amount: { type: "integer", minimum: -100000, maximum: 100000 },
      unit: { type: "string", enum: ["days", "weeks", "months", "business_days"] },
    },
    required: ["amount", "unit"],
  };
  assert.deepEqual(
    fillArguments("what date is 45 days after our launch date", schema).missing.map((m) => m.field),
    ["date"],
  );
  assert.deepEqual(fillArguments("what was the date 6 months before 2025-02-28", schema).arguments, {
    unit: "months",
    date: "2025-02-28",
    amount: -6,
  });
  assert.deepEqual(fillArguments("when does a 14 day trial end", schema).arguments, {
    unit: "days",
    amount: 14,
  });
});

test("a timestamp takes a bare number only by its cue; a lower-case city after 'in' is a city", () => {
  const schema = {
    type: "object",
    properties: {
      timestamp: { type: "number" },
      unit: { type: "string", enum: ["seconds", "milliseconds"] },
    },
  };
  assert.equal(fillArguments("how many seconds in 3 hours", schema).arguments.timestamp, undefined);
  assert.equal(fillArguments("what date is unix time 0", schema).arguments.timestamp, 0);
  const zone = { type: "object", properties: { timezone: { type: "string", default: "UTC" } } };
  assert.deepEqual(fillArguments("what time is it in paris", zone).arguments, { timezone: "Europe/Paris" });
  assert.deepEqual(fillArguments("what is on at christmas", zone).arguments, {});
});

test("a quantity in two units, or a number left over beside one placed by order, is asked about", () => {
  assert.deepEqual(
    fillArguments("what's 3 feet 4 inches in cm", UNITS)
      .missing.map((m) => m.field)
      .sort(),
    ["from", "to", "value"],
  );
  const bases = {
    type: "object",
    properties: {
      value: { type: "string" },
      from_base: { type: "integer", minimum: 2, maximum: 36 },
      to_bases: { type: "array", items: { type: "integer" } },
    },
    required: ["value"],
  };
  assert.deepEqual(
    fillArguments("round 3.14159 to 2 decimals", bases).missing.map((m) => m.field),
    ["value"],
  );
  const examples = [
    { query: "convert 255 to binary", arguments: { value: "255", to_bases: [2] } },
    { query: "what is 777 from base 8 in hex", arguments: { value: "777", from_base: 8, to_bases: [16] } },
    { query: "write 42 into base 3", arguments: { value: "42", to_bases: [3] } },
  ];
  assert.deepEqual(fillArguments("turn 101101 from base 2 into base 10", bases, {}, { examples }).arguments, {
    from_base: 2,
    to_bases: [10],
    value: "101101",
  });
});

test("filling stays linear on long adversarial requests (a quadratic scan would take minutes)", () => {
  const schema = {
    type: "object",
    properties: {
      value: { type: "number" },
      from: { type: "string" },
      to: { type: "string" },
      timestamp: { type: "number" },
      timezone: { type: "string" },
      text: { type: "string" },
    },
    required: ["value", "from", "to"],
  };
  const started = performance.now();
  for (const text of [
    "1".repeat(100_000),
    "!".repeat(100_000),
    "1a ".repeat(30_000),
    "12 kg to lb and ".repeat(6_000),
    "unix 5 ".repeat(15_000),
    "in tokyo ".repeat(10_000),
    `${"x".repeat(50)} 3 ways 4 of us `.repeat(1_500),
  ])
    fillArguments(text, schema);
  // Linear scans take well under a second here; the quadratic ones they replaced took minutes.
  assert.ok(performance.now() - started < scaled(20_000));
});

test("values go by the words around them, not their order: the assignment weighs them together", () => {
  const growth = {
    type: "object",
    properties: {
      revenue: { type: "number", description: "Revenue in dollars" },
      years: { type: "integer", description: "How many years" },
    },
    required: ["revenue", "years"],
  };
  assert.deepEqual(fillArguments("over 5 years revenue of $120000", growth).arguments, {
    years: 5,
    revenue: 120000,
  });
  // A made-up catalog's example call teaches how its values are phrased.
  const login = {
    type: "object",
    properties: { attempts: { type: "integer" }, lockout_minutes: { type: "integer" } },
    required: ["attempts", "lockout_minutes"],
  };
  const examples = [
    { query: "lock for 30 minutes after 5 tries", arguments: { attempts: 5, lockout_minutes: 30 } },
  ];
  assert.deepEqual(fillArguments("after 3 tries lock for 15 minutes", login, {}, { examples }).arguments, {
    attempts: 3,
    lockout_minutes: 15,
  });
});

test("schema patterns run in linear time and property names are data, not regex", () => {
  const schema = {
    type: "object",
    properties: {
      code: { type: "string", pattern: "^(a+)+$" },
      "use(cache": { type: "boolean" },
    },
    required: ["code"],
  };
  const filled = fillArguments(`check "${"a".repeat(40)}!" without use(cache`, schema);
  assert.equal(filled.arguments.code, undefined);
  assert.equal(filled.arguments["use(cache"], false);
});

test("every fill carries a confidence and the values it read, with their spans", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  };
  const filled = fillArguments("combine 3 and 4", schema);
  assert.deepEqual(filled.arguments, { a: 3, b: 4 });
  assert.ok(filled.confidence < 1);
  assert.deepEqual(
    filled.suggested.map((v) => [v.field, v.span?.text, v.evidence]),
    [
      ["a", "3", "order"],
      ["b", "4", "order"],
    ],
  );
});

test("a value read as its parameter's default does not lower a described tool's confidence", () => {
  const table = {
    type: "object",
    properties: {
      csv: { type: "string" },
      header: { type: "boolean", default: true, description: "Whether the first row holds column names" },
    },
    required: ["csv"],
  };
  const examples = [{ query: "convert to JSON: a,b\n1,2", arguments: { csv: "a,b\n1,2" } }];
  const fill = fillArguments("to JSON rows, first line is the header: a;b\n1;2", table, {}, { examples });
  assert.equal(fill.arguments.header, true);
  assert.ok(fill.confidence >= fill.bar, `${fill.confidence} < ${fill.bar}: ${JSON.stringify(fill.filled)}`);
});

test("one number is a list's only item on the list's own word, not after a word its examples use", () => {
  const stats = {
    type: "object",
    properties: { numbers: { type: "array", items: { type: "number" }, minItems: 1 } },
    required: ["numbers"],
  };
  const examples = [{ query: "what's the average of 12, 15, 22", arguments: { numbers: [12, 15, 22] } }];
  assert.deepEqual(
    fillArguments("what are the prime factors of 5040?", stats, {}, { examples }).arguments,
    {},
  );
  assert.deepEqual(fillArguments("the average of 3, 4 and 8", stats, {}, { examples }).arguments, {
    numbers: [3, 4, 8],
  });
});

test("one text stated twice is one value: a second parameter is not given it again", () => {
  const compare = schema({ a: str("A version"), b: str("A version") }, ["a", "b"]);
  const once = fillArguments(
    "Is our pinned version older than 4.2.1? 4.2.1 is the release with the fix.",
    compare,
  );
  assert.deepEqual(once.arguments, { a: "4.2.1" });
  assert.deepEqual(
    once.missing.map((m) => m.field),
    ["b"],
  );
  assert.deepEqual(fillArguments("is 1.2.3 older than 1.4.0?", compare).arguments, {
    a: "1.2.3",
    b: "1.4.0",
  });
});
