import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { LlmError } from "../../src/llm/index.ts";
import { Sandbox, synthesizeFromIntent } from "../../src/synth/index.ts";
import { scaled } from "../load-factor.ts";

// A stand-in for an OpenAI-compatible chat-completions endpoint: it records each request and answers
// with the next scripted reply, in the same wire format.
let server: Server;
let baseUrl: string;
let replies: (string | { status: number; body: string })[] = [];
const requests: {
  auth: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}[] = [];

before(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      assert.equal(request.url, "/v1/chat/completions");
      requests.push({ auth: request.headers.authorization, body: JSON.parse(body) });
      const next = replies.shift() ?? "{}";
      if (typeof next !== "string") {
        response.writeHead(next.status);
        return response.end(next.body);
      }
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          id: "chatcmpl-standin",
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: next }, finish_reason: "stop" }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
beforeEach(() => {
  requests.length = 0;
});

// A tool's answer may come late on a busy machine: the default deadline scales with the load (load-factor.ts).
const sandbox = new Sandbox({ defaultTimeoutMs: Math.round(scaled(2_000)) });
after(() => {
  sandbox.close();
  server.close();
});

const proposal = (code: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: "reverse_words",
    description: "Reverses the order of the words in a sentence.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    outputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    code,
    ...extra,
  });

describe("synthesizeFromIntent", () => {
  it("asks the endpoint, feeds each structured failure back, and succeeds within the rounds", async () => {
    replies = [
      proposal("async function reverse_words(args) { return { text: require('x') }; }"),
      `Here you go:\n\`\`\`json\n${proposal("async function reverse_words(args) { return { text: args.text.split(' ').reverse() }; }")}\n\`\`\``,
      proposal(
        "async function reverse_words(args) { return { text: args.text.split(' ').reverse().join(' ') }; }",
      ),
    ];
    const outcome = await synthesizeFromIntent(
      { intent: "reverse the words of a sentence", arguments: { text: "one two three" } },
      { sandbox, llm: { baseUrl, model: "stand-in-model", apiKey: "sk-test" }, maxRounds: 3 },
    );
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    assert.equal(outcome.rounds, 3);
    if (!outcome.ok) return;
    assert.equal(outcome.tool.name, "reverse_words");
    assert.deepEqual(outcome.tests[0]?.output, { text: "three two one" });

    assert.equal(requests.length, 3);
    assert.equal(requests[0]?.auth, "Bearer sk-test");
    assert.equal(requests[0]?.body.model, "stand-in-model");
    const second = requests[1]?.body.messages ?? [];
    assert.deepEqual(
      second.map((m) => m.role),
      ["system", "user", "assistant", "user"],
    );
    assert.match(second[3]?.content ?? "", /"static" stage \(policy\)/);
    assert.match(second[3]?.content ?? "", /`require` is refused/);
    assert.match(second[3]?.content ?? "", /"line": 1/);
    const third = requests[2]?.body.messages ?? [];
    assert.match(third[5]?.content ?? "", /"output" stage \(schema\)/);
    assert.match(third[5]?.content ?? "", /output\.text/);
  });

  it("gives up after maxRounds with the last failure", async () => {
    replies = ["I cannot help with that.", "Still no JSON."];
    const outcome = await synthesizeFromIntent(
      { intent: "do something" },
      { sandbox, llm: { baseUrl, model: "m" }, maxRounds: 2 },
    );
    assert.equal(outcome.ok, false);
    assert.equal(outcome.rounds, 2);
    assert.equal(!outcome.ok && outcome.stage, "definition");
    assert.equal(requests.length, 2);
    assert.equal(requests[0]?.auth, undefined);
  });

  it("keeps the caller's name and schema, and refuses a name already taken", async () => {
    replies = [
      proposal("function reverse_words(args) { return { text: args.text }; }"),
      proposal("function echo_text(args) { return { text: args.text }; }", { name: "echo_text" }),
    ];
    const outcome = await synthesizeFromIntent(
      { intent: "echo text", arguments: { text: "hi" } },
      { sandbox, llm: { baseUrl, model: "m" }, isTaken: (name) => name === "reverse_words" },
    );
    assert.equal(outcome.ok && outcome.tool.name, "echo_text");
    assert.match(requests[1]?.body.messages[3]?.content ?? "", /already exists; choose another name/);

    replies = [proposal("function fixed_name(args) { return { text: args.text }; }")];
    const fixed = await synthesizeFromIntent(
      { intent: "echo", name: "fixed_name", inputSchema: { type: "object" }, arguments: { text: "x" } },
      { sandbox, llm: { baseUrl, model: "m" } },
    );
    assert.equal(fixed.ok && fixed.tool.name, "fixed_name");
    assert.deepEqual(fixed.ok && fixed.tool.inputSchema, { type: "object" });
    assert.match(requests.at(-1)?.body.messages[1]?.content ?? "", /must be named fixed_name/);
  });

  it("throws LlmError when the endpoint fails", async () => {
    replies = [{ status: 401, body: '{"error":"bad key"}' }];
    await assert.rejects(
      synthesizeFromIntent({ intent: "x" }, { sandbox, llm: { baseUrl, model: "m" } }),
      (error: unknown) => error instanceof LlmError && error.status === 401 && /bad key/.test(error.message),
    );
  });
});
