// A small catalog for the service tests: offline sandbox tools, plus tools bound over HTTP to a stand-in
// server the test file starts on 127.0.0.1 (its URL is passed in).

export function fixtureTools(standIn: string): object[] {
  return [
    {
      name: "add_numbers",
      description: "Add two numbers and return their sum. Use for arithmetic: plus, total, sum of a and b.",
      category: "maths",
      annotations: { readOnlyHint: true },
      examples: ["what is 2 plus 3", "add 10 and 32", "sum of two numbers"],
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      binding: {
        type: "sandbox",
        code: "async function add_numbers(args) { return { sum: args.a + args.b }; }",
      },
    },
    {
      name: "count_words",
      description: "Count the words and characters of a text. Text statistics: word count, length.",
      category: "text",
      annotations: { readOnlyHint: true },
      examples: ["how many words are in this text", "word count of a paragraph"],
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", description: "The text" }, unique: { type: "boolean" } },
        required: ["text"],
      },
      binding: {
        type: "sandbox",
        code: "async function count_words(args) { const words = args.text.split(/\\s+/).filter(Boolean); return { words: words.length, characters: args.text.length }; }",
      },
    },
    {
      name: "refund_order",
      title: "Refund an order",
      description:
        "Refund a customer's order: give the money back for an order number, fully or partly. Billing and refunds.",
      category: "billing",
      annotations: { readOnlyHint: false, destructiveHint: false },
      examples: ["I want my money back for order 1234", "refund my order", "return payment for a purchase"],
      inputSchema: {
        type: "object",
        properties: { order_id: { type: "string" }, amount: { type: "number", minimum: 0 } },
        required: ["order_id"],
      },
      binding: { type: "http", method: "POST", url: `${standIn}/refunds/{order_id}` },
    },
    {
      name: "slow.lookup",
      description: "Look up a record in the slow archive service; takes a moment to answer. Archive search.",
      category: "archive",
      annotations: { readOnlyHint: true },
      examples: ["search the archive for a record"],
      inputSchema: { type: "object", properties: { ms: { type: "integer" } }, required: ["ms"] },
      binding: { type: "http", method: "GET", url: `${standIn}/slow`, query: { ms: "{ms}" } },
    },
  ];
}
