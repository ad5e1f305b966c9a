// The internet tools run here without the internet: their code goes through the real sandbox, with every
// provider origin ("https://host/…") rewritten to a local HTTP server standing in for that provider
// ("http://127.0.0.1:port/host/…"). That checks how each tool reads its provider's answers, and that an
// unreachable provider gives an error naming the host.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createProvider } from "../../src/bindings/index.ts";
import {
  type HttpBinding,
  loadCatalog,
  type SandboxBinding,
  type Tool,
  validateAgainstSchema,
} from "../../src/catalog/index.ts";
import { createEgressPolicy } from "../../src/egress/index.ts";
import { Sandbox } from "../../src/synth/index.ts";

const tools = await loadCatalog(join(import.meta.dirname, "../../catalog"));
// The stand-in provider listens on loopback, which ctx.fetch reaches only when the operator allows it.
// The stand-in is on loopback: the operator allows it, for the sandbox's ctx.fetch and the http bindings.
const egress = createEgressPolicy({ allow: ["127.0.0.1"] });
const sandbox = new Sandbox({ egress });
/** Canned provider answers, by "host/path" (without the query string). */
const answers = new Map<string, { type: string; body: string }>();
const requested: string[] = [];
const standIn: Server = createServer((req, res) => {
  const url = req.url ?? "";
  requested.push(url);
  const answer = answers.get(url.slice(1).split("?")[0] ?? "");
  if (!answer) {
    res.statusCode = 404;
    res.end("not found");
    return;
  }
  res.setHeader("content-type", answer.type);
  res.end(answer.body);
});
let base = "";

before(async () => {
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
after(() => {
  standIn.close();
  sandbox.close();
});

const json = (value: unknown) => ({ type: "application/json", body: JSON.stringify(value) });

/** Runs a tool's primary binding (index 0) or one of its fallbacks against `origin`. */
async function run(name: string, args: unknown, provider = 0, origin = base) {
  const tool = tools.find((t) => t.name === name) as Tool;
  const binding = [tool.binding, ...(tool.policy?.fallback ?? [])][provider] as SandboxBinding;
  assert.ok(
    binding?.file && binding.capabilities?.fetch,
    `${name} provider ${provider} is not a fetching sandbox tool`,
  );
  const code = (await readFile(binding.file, "utf8")).replaceAll("https://", `${origin}/`);
  const capabilities = {
    html: binding.capabilities.html,
    fetch: { ...binding.capabilities.fetch, allow: [`${origin}/`] },
  };
  const { value } = await sandbox.run({ code, name, args, capabilities, timeoutMs: 5000 });
  assert.deepEqual(
    validateAgainstSchema(tool.outputSchema ?? { type: "object" }, value),
    [],
    `${name} output`,
  );
  return value as Record<string, unknown>;
}

test("get_current_weather geocodes the place, reads Open-Meteo's current block and names the conditions", async () => {
  answers.set(
    "geocoding-api.open-meteo.com/v1/search",
    json({
      results: [
        { name: "Paris", country: "United States", country_code: "US", latitude: 33.66, longitude: -95.55 },
        { name: "Paris", country: "France", country_code: "FR", latitude: 48.85, longitude: 2.35 },
      ],
    }),
  );
  answers.set(
    "api.open-meteo.com/v1/forecast",
    json({
      current: {
        time: "2024-05-01T14:00",
        temperature_2m: 17.2,
        relative_humidity_2m: 71,
        apparent_temperature: 16.4,
        precipitation: 0.4,
        weather_code: 61,
        wind_speed_10m: 14.8,
        wind_direction_10m: 225,
      },
    }),
  );
  requested.length = 0;
  const value = await run("get_current_weather", { location: "Paris, France" });
  assert.deepEqual(value.location, { name: "Paris", country: "France", latitude: 48.85, longitude: 2.35 });
  assert.equal(value.conditions, "light rain");
  assert.equal(value.wind_direction, "SW");
  assert.equal(value.temperature, 17.2);
  assert.match(requested[1] ?? "", /latitude=48\.85&longitude=2\.35/);
});

test("the wttr.in fallback for the weather gives the same shape from wttr.in's j1 format", async () => {
  answers.set(
    "wttr.in/Oslo",
    json({
      current_condition: [
        {
          temp_C: "-3",
          temp_F: "27",
          FeelsLikeC: "-8",
          FeelsLikeF: "18",
          humidity: "86",
          windspeedKmph: "19",
          windspeedMiles: "12",
          winddir16Point: "NNE",
          precipMM: "0.1",
          precipInches: "0.0",
          weatherDesc: [{ value: "Light snow" }],
          localObsDateTime: "2024-01-10 08:00 AM",
        },
      ],
      nearest_area: [
        {
          areaName: [{ value: "Oslo" }],
          country: [{ value: "Norway" }],
          latitude: "59.91",
          longitude: "10.75",
        },
      ],
    }),
  );
  // The fallback is an http binding whose map makes the canonical answer: run it as the dispatcher does.
  const tool = tools.find((t) => t.name === "get_current_weather") as Tool;
  const binding = tool.policy?.fallback?.[0] as HttpBinding;
  assert.equal(binding.type, "http");
  const provider = createProvider({ ...binding, url: binding.url.replace("https://", `${base}/`) }, tool, {
    sandbox,
    egress,
  });
  const weatherIn = async (units: string) => {
    const args = { location: "Oslo", units };
    const options = { signal: new AbortController().signal, callId: "t", context: {} };
    const value = provider.mapOutput?.(await provider.invoke(args, options), args) as Record<string, unknown>;
    assert.deepEqual(validateAgainstSchema(tool.outputSchema ?? { type: "object" }, value), []);
    return value;
  };
  const imperial = await weatherIn("imperial");
  assert.deepEqual(imperial, {
    location: { name: "Oslo", country: "Norway", latitude: 59.91, longitude: 10.75 },
    observed_at: "2024-01-10 08:00 AM",
    temperature: 27,
    feels_like: 18,
    humidity_percent: 86,
    wind_speed: 12,
    wind_direction: "NNE",
    precipitation: 0,
    conditions: "light snow",
    units: { temperature: "°F", wind: "mph", precipitation: "in" },
    source: "wttr.in",
  });
  const metric = await weatherIn("metric");
  assert.equal(metric.temperature, -3);
  assert.equal(metric.wind_speed, 19);
  assert.deepEqual(metric.units, { temperature: "°C", wind: "km/h", precipitation: "mm" });
  assert.match(requested.at(-1) ?? "", /^\/wttr\.in\/Oslo\?format=j1$/);
});

test("hn_top_stories' last fallback scrapes the front page with host-side CSS selection", async () => {
  const row = (id: number, title: string, href: string, points: number, comments: number) =>
    `<tr class="athing" id="${id}"><td class="title"><span class="titleline"><a href="${href}">${title}</a></span></td></tr>` +
    `<tr><td class="subtext"><span class="score">${points} points</span> by <a class="hnuser">user${id}</a> | <a>${comments}&nbsp;comments</a></td></tr>`;
  answers.set("news.ycombinator.com/news", {
    type: "text/html",
    body: `<html><body><table>${row(41, "Show HN: A tiny router", "https://example.com/a", 120, 30)}${row(42, "Ask HN: Hiring?", "item?id=42", 8, 2)}</table></body></html>`,
  });
  const value = await run("hn_top_stories", { limit: 2 }, 2);
  const stories = value.stories as Record<string, unknown>[];
  assert.equal(stories.length, 2);
  assert.deepEqual(
    {
      title: stories[0]?.title,
      points: stories[0]?.points,
      comments: stories[0]?.comments,
      by: stories[0]?.by,
    },
    { title: "Show HN: A tiny router", points: 120, comments: 30, by: "user41" },
  );
  assert.equal(stories[1]?.url, `${base}/news.ycombinator.com/item?id=42`);
});

test("check_password_breach sends only the SHA-1 prefix and finds the password among the suffixes", async () => {
  // SHA-1("password") = 5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8 (coreutils sha1sum).
  answers.set("api.pwnedpasswords.com/range/5BAA6", {
    type: "text/plain",
    body: "003D68EB55068C33ACE09247EE4C639306B:3\r\n1E4C9B93F3F0682250B6CF8331B7EE68FD8:10434004\r\n",
  });
  requested.length = 0;
  const value = await run("check_password_breach", { password: "password" });
  assert.deepEqual(requested, ["/api.pwnedpasswords.com/range/5BAA6"]);
  assert.equal(value.breached, true);
  assert.equal(value.times_seen, 10434004);
});

test("convert_currency converts at the provider's rate, rounded to cents", async () => {
  answers.set(
    "api.frankfurter.app/latest",
    json({ amount: 1, base: "USD", date: "2024-05-02", rates: { EUR: 0.93405 } }),
  );
  const value = await run("convert_currency", { amount: 250, from: "usd", to: "EUR" });
  assert.deepEqual(
    { rate: value.rate, result: value.result, date: value.date },
    { rate: 0.93405, result: 233.51, date: "2024-05-02" },
  );
});

test("a provider that cannot be reached gives an error naming the host", async () => {
  // A port that was just closed refuses connections, like a provider with no route to it.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  for (const [name, args, host] of [
    ["get_weather_forecast", { location: "Rome" }, "the Open-Meteo geocoder"],
    ["wikipedia_summary", { topic: "Kyoto" }, "en.wikipedia.org"],
    ["public_holidays", { country: "DE", year: 2025 }, "date.nager.at"],
  ] as const) {
    await assert.rejects(run(name, args, 0, origin), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`could not reach ${host.replaceAll(".", "\\.")} \\(offline or blocked\\?\\)`),
      );
      return true;
    });
  }
});
