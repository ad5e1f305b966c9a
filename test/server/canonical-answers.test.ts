// Declarative normalisation end to end: one tool, two local stand-in weather providers that answer in
// different shapes (A: WeatherAPI-like, Celsius and km/h; B: kelvin, metres per second, a bare string
// list), each with its own `map`. The real service answers the same canonical output from either, over
// HTTP (/v1/execute) and over MCP (call_tool); `catalog validate` names each part of a wrong mapping.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CLI, call, type Service, startService, writeCatalog } from "./harness.ts";

const AGENT = "canonical-agent";
let providerADown = false;
const asked: string[] = [];

/** A stand-in provider on loopback: `answer` builds its JSON body for a city. */
async function standIn(name: string, answer: (city: string) => unknown, down = () => false): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    asked.push(`${name} ${url.pathname}${url.search}`);
    if (down()) {
      res.statusCode = 503;
      res.end("down for maintenance");
      return;
    }
    const city = url.searchParams.get("q") ?? decodeURIComponent(url.pathname.split("/").at(-1) ?? "");
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(answer(city)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

let a: Server;
let b: Server;
let service: Service;

const outputSchema = {
  type: "object",
  properties: {
    city: { type: "string" },
    temperature_c: { type: "number" },
    wind_kmh: { type: "number" },
    conditions: { type: "string" },
    alerts: { type: "array", items: { type: "string" } },
  },
  required: ["city", "temperature_c", "wind_kmh", "conditions", "alerts"],
  additionalProperties: false,
};

const mapA = {
  city: { path: "location.name" },
  temperature_c: { path: "current.temp_c" },
  wind_kmh: { path: "current.wind_kph" },
  conditions: { path: "current.condition.text", text: "lower" },
  alerts: { path: "alerts.alert", each: { path: "headline" } },
};

const mapB = {
  city: { path: "station.city" },
  temperature_c: { path: "temperature.value", convert: "kelvin_to_celsius", round: 1 },
  wind_kmh: { path: "wind.mps", convert: "mps_to_kmh", round: 1 },
  conditions: { path: "summary" },
  alerts: { path: "warnings", each: { path: "$" } },
};

function weatherTool(fallbackMap: unknown) {
  return {
    name: "city_weather",
    description: "Current weather for a city: temperature, wind, conditions and alerts",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string", minLength: 1 } },
      required: ["city"],
      additionalProperties: false,
    },
    outputSchema,
    annotations: { readOnlyHint: true, openWorldHint: true },
    binding: {
      type: "http",
      method: "GET",
      url: `${origin(a)}/v1/current.json`,
      query: { q: "{city}" },
      map: mapA,
    },
    policy: {
      kind: "read",
      retry: { retries: 0 },
      fallback: [{ type: "http", method: "GET", url: `${origin(b)}/observations/{city}`, map: fallbackMap }],
    },
  };
}

before(async () => {
  a = await standIn(
    "A",
    (city) => ({
      location: { name: city, country: "Norway" },
      current: { temp_c: 21.5, wind_kph: 18, condition: { text: "Light Rain", code: 1183 } },
      alerts: { alert: [{ headline: "Gale warning", severity: "moderate" }] },
    }),
    () => providerADown,
  );
  b = await standIn("B", (city) => ({
    station: { city, id: "st-17" },
    temperature: { value: 294.65, unit: "K" },
    wind: { mps: 5, deg: 250 },
    summary: "light rain",
    warnings: ["Gale warning"],
  }));
  service = await startService({
    catalog: await writeCatalog([weatherTool(mapB)]),
    env: { SWITCHBOARD_AGENT_KEYS: AGENT, SWITCHBOARD_EGRESS_ALLOW: "127.0.0.1" },
  });
});

after(async () => {
  await service?.stop();
  a?.close();
  b?.close();
});

const CANONICAL = {
  city: "Oslo",
  temperature_c: 21.5,
  wind_kmh: 18,
  conditions: "light rain",
  alerts: ["Gale warning"],
};

async function overHttp() {
  const answer = await call(service, "POST", "/v1/execute", {
    key: AGENT,
    body: { calls: [{ id: "w", name: "city_weather", arguments: { city: "Oslo" } }] },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const [result] = answer.body.results;
  assert.equal(result.status, "completed", JSON.stringify(result.error));
  return result;
}

async function overMcp() {
  const client = new Client({ name: "canonical-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${AGENT}` } },
    }),
  );
  try {
    const result = await client.callTool({
      name: "call_tool",
      arguments: { name: "city_weather", arguments: { city: "Oslo" } },
    });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const [first] = result.content as { type: string; text: string }[];
    return JSON.parse(first?.text ?? "null");
  } finally {
    await client.close();
  }
}

test("each provider's answer reaches the caller in the one canonical shape, over HTTP and MCP", async () => {
  providerADown = false;
  const fromA = await overHttp();
  assert.deepEqual(fromA.output, CANONICAL);
  // An agent key sees a provider as its binding type and a hash of its id, never its URL.
  assert.match(fromA.provenance.provider, /^http:[0-9a-f]{12}$/);
  assert.deepEqual((await overMcp()).output, CANONICAL);

  providerADown = true;
  asked.length = 0;
  const fromB = await overHttp();
  assert.deepEqual(fromB.output, CANONICAL);
  assert.match(fromB.provenance.provider, /^http:[0-9a-f]{12}$/);
  assert.notEqual(fromB.provenance.provider, fromA.provenance.provider, "another provider answered");
  assert.deepEqual(
    asked.map((line) => line.split(" ")[0]),
    ["A", "B"],
    "A was asked, failed, and B answered",
  );
  assert.deepEqual((await overMcp()).output, CANONICAL);
});

const run = promisify(execFile);

async function validate(
  path: string,
): Promise<{ code: number; report: { problems: { path: string; message: string }[] } }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, "catalog", "validate", path, "--json"]);
    return { code: 0, report: JSON.parse(stdout) };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, report: JSON.parse(e.stdout) };
  }
}

test("catalog validate accepts both mappings and names the path of each part of a wrong one", async () => {
  const good = await validate(await writeCatalog([weatherTool(mapB)]));
  assert.equal(good.code, 0, JSON.stringify(good.report));

  const wrong = {
    ...mapB,
    temperature_c: undefined,
    temprature_c: { path: "temperature.value", convert: "kelvin_to_celsius" },
    wind_kmh: { path: "wind.mps", as: "string" },
    alerts: { path: "warnings", each: { path: "$", as: "boolean" } },
  };
  const bad = await validate(await writeCatalog([weatherTool(JSON.parse(JSON.stringify(wrong)))]));
  assert.equal(bad.code, 1);
  const found = bad.report.problems.map((p) => `${p.path}: ${p.message}`);
  assert.deepEqual(
    bad.report.problems.map((p) => p.path),
    [
      "policy.fallback.0.map.wind_kmh",
      "policy.fallback.0.map.alerts.each",
      "policy.fallback.0.map.temprature_c",
      "policy.fallback.0.map",
    ],
    found.join("\n"),
  );
  assert.match(found[0] ?? "", /makes a string, but the outputSchema wants number/);
  assert.match(found[2] ?? "", /no field "temprature_c"/);
  assert.match(found[3] ?? "", /requires "temperature_c"/);
});
