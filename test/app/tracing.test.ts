// OpenTelemetry spans from a real Switchboard (in process): a recording tracer provider, built here as a
// stand-in for an OpenTelemetry SDK, captures what the service emits through @opentelemetry/api.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type Attributes, type Span, type SpanOptions, type SpanStatus, trace } from "@opentelemetry/api";
import { configFrom, openSwitchboard, type Switchboard } from "../../src/app/index.ts";
import { createLogger, readEnv } from "../../src/config/index.ts";
import { fixtureTools } from "../server/fixture-tools.ts";
import { tempDir, writeCatalog } from "../server/harness.ts";

interface Recorded {
  name: string;
  attributes: Attributes;
  status?: SpanStatus;
  start?: unknown;
  end?: unknown;
}

const spans: Recorded[] = [];

function recordingSpan(record: Recorded): Span {
  const span = {
    setAttribute(key: string, value: unknown) {
      record.attributes[key] = value as never;
      return span;
    },
    setStatus(status: SpanStatus) {
      record.status = status;
      return span;
    },
    end(time?: unknown) {
      record.end = time;
    },
  };
  return span as unknown as Span;
}

let app: Switchboard;

before(async () => {
  trace.setGlobalTracerProvider({
    getTracer: () =>
      ({
        startSpan(name: string, options: SpanOptions = {}) {
          const record: Recorded = { name, attributes: { ...options.attributes }, start: options.startTime };
          spans.push(record);
          return recordingSpan(record);
        },
      }) as never,
  });
  const catalog = await writeCatalog(fixtureTools("http://127.0.0.1:9"));
  app = await openSwitchboard(configFrom(readEnv({}), { catalog, data: await tempDir("tracing") }), {
    logger: createLogger("silent"),
  });
});

after(async () => {
  await app?.close();
  trace.disable();
});

test("each call is an execute_tool span with the GenAI attributes; a failure carries error.type", async () => {
  await app.execute([
    { id: "ok-1", name: "add_numbers", arguments: { a: 1, b: 2 } },
    { id: "bad-1", name: "add_numbers", arguments: { a: "one" } },
  ]);
  const ok = spans.find((s) => s.attributes["gen_ai.tool.call.id"] === "ok-1");
  const bad = spans.find((s) => s.attributes["gen_ai.tool.call.id"] === "bad-1");
  assert.ok(ok && bad, JSON.stringify(spans));
  assert.equal(ok.name, "execute_tool add_numbers");
  assert.equal(ok.attributes["gen_ai.tool.name"], "add_numbers");
  assert.equal(ok.attributes["gen_ai.operation.name"], "execute_tool");
  assert.equal(ok.attributes["error.type"], undefined);
  assert.equal(typeof ok.start, "number");
  assert.ok((ok.end as number) >= (ok.start as number));
  assert.equal(bad.attributes["error.type"], "schema");
  assert.equal(bad.status?.code, 2);
});
