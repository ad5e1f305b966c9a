// A bundled internet tool behind the real dispatcher, with its real policy (retry, breaker, fallback chain,
// cache) and its real code, the provider origins rewritten to a local server standing in for Open-Meteo
// (down: HTTP 503) and wttr.in (up). The weather must keep coming from the fallback, and the breaker that
// opens on Open-Meteo must not block wttr.in.
import assert from "node:assert/strict";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { providersFor } from "../../src/bindings/index.ts";
import { type Binding, loadCatalog, type SandboxBinding, type Tool } from "../../src/catalog/index.ts";
import { Dispatcher } from "../../src/dispatch/index.ts";
import { createEgressPolicy } from "../../src/egress/index.ts";
import { Sandbox } from "../../src/synth/index.ts";

const tools = await loadCatalog(join(import.meta.dirname, "../../catalog"));
// The stand-in provider listens on loopback, which ctx.fetch reaches only when the operator allows it.
// The stand-in is on loopback: the operator allows it, for the sandbox's ctx.fetch and the http bindings.
const egress = createEgressPolicy({ allow: ["127.0.0.1"] });
const sandbox = new Sandbox({ egress });
const seen: string[] = [];
const standIn = createServer((req, res) => {
  const url = req.url ?? "";
  seen.push(url.split("?")[0] ?? "");
  if (!url.startsWith("/wttr.in/")) {
    res.statusCode = 503;
    res.end("maintenance");
    return;
  }
  const city = decodeURIComponent(url.slice("/wttr.in/".length).split("?")[0] ?? "");
  res.setHeader("content-type", "application/json");
  res.end(
    JSON.stringify({
      current_condition: [
        {
          temp_C: "12",
          FeelsLikeC: "10",
          humidity: "80",
          windspeedKmph: "20",
          winddir16Point: "W",
          precipMM: "0.0",
          weatherDesc: [{ value: "Partly cloudy" }],
          localObsDateTime: "2024-01-10 09:00 AM",
        },
      ],
      nearest_area: [
        { areaName: [{ value: city }], country: [{ value: "Somewhere" }], latitude: "1", longitude: "2" },
      ],
    }),
  );
});
let tool: Tool;

before(async () => {
  await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  const dir = await mkdtemp(join(tmpdir(), "sb-bundled-"));
  // The catalog's tool with each sandbox file copied, its "https://" origins pointed at the stand-in.
  const rewrite = async (binding: SandboxBinding): Promise<SandboxBinding> => {
    const file = join(dir, basename(binding.file as string));
    await writeFile(
      file,
      (await readFile(binding.file as string, "utf8")).replaceAll("https://", `${origin}/`),
    );
    const fetch = binding.capabilities?.fetch;
    return { ...binding, file, capabilities: { fetch: fetch && { ...fetch, allow: [`${origin}/`] } } };
  };
  // The wttr.in fallback is an http binding with a map: only its URL moves to the stand-in.
  const redirect = (binding: Binding): Promise<Binding> | Binding =>
    binding.type === "http"
      ? { ...binding, url: binding.url.replace("https://", `${origin}/`) }
      : rewrite(binding as SandboxBinding);
  const weather = tools.find((t) => t.name === "get_current_weather") as Tool;
  tool = {
    ...weather,
    binding: await rewrite(weather.binding as SandboxBinding),
    policy: {
      ...weather.policy,
      fallback: await Promise.all((weather.policy?.fallback ?? []).map(redirect)),
    },
  };
});
after(() => {
  standIn.close();
  sandbox.close();
});

test("with Open-Meteo down every answer comes from wttr.in, and only Open-Meteo's breaker opens", async () => {
  const dispatcher = new Dispatcher({
    tools: { get: (name) => (name === tool.name ? tool : undefined) },
    providers: (t) => providersFor(t, { sandbox, egress }),
    sleep: async () => {},
  });
  const cities = ["Oslo", "Lima", "Pune", "Kyiv", "Oran", "Bern", "Riga", "Doha"];
  for (const [k, city] of cities.entries()) {
    const [result] = await dispatcher.execute([
      { id: `c${k}`, name: tool.name, arguments: { location: city } },
    ]);
    assert.equal(result?.status, "completed", `${city}: ${JSON.stringify(result?.error)}`);
    const output = result?.output as { source: string; location: { name: string }; conditions: string };
    assert.equal(output.source, "wttr.in");
    assert.equal(output.location.name, city);
    assert.equal(output.conditions, "partly cloudy");
  }
  const breakers = dispatcher.breakers().filter((b) => b.tool === tool.name);
  const byProvider = Object.fromEntries(breakers.map((b) => [b.provider, b.state]));
  assert.equal(breakers.length, 2, `one breaker per provider: ${JSON.stringify(breakers)}`);
  const states = Object.entries(byProvider)
    .map(([id, state]) => `${/wttr/.test(id) ? "wttr" : "open-meteo"}:${state}`)
    .sort();
  assert.deepEqual(states, ["open-meteo:open", "wttr:closed"]);
  // Once its breaker is open, Open-Meteo is no longer asked at all.
  const lastCalls = seen.slice(-2);
  assert.ok(
    lastCalls.every((path) => path.startsWith("/wttr.in/")),
    JSON.stringify(lastCalls),
  );
});

test("an answer is cached under the tool's policy: asking again does not reach any provider", async () => {
  const dispatcher = new Dispatcher({
    tools: { get: (name) => (name === tool.name ? tool : undefined) },
    providers: (t) => providersFor(t, { sandbox, egress }),
    sleep: async () => {},
  });
  const call = { name: tool.name, arguments: { location: "Quito" } };
  const [first] = await dispatcher.execute([{ id: "a", ...call }]);
  assert.equal(first?.status, "completed");
  const before = seen.length;
  const [second] = await dispatcher.execute([{ id: "b", ...call }]);
  assert.equal(second?.status, "completed");
  assert.deepEqual(second?.output, first?.output);
  assert.equal(seen.length, before, "the second call reached a provider");
  assert.equal(second?.provenance.stale, false);
});
