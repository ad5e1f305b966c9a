// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function get_current_weather(args, ctx) {
  // Secondary provider, independent of Open-Meteo: wttr.in's JSON format (j1).
  const imperial = args.units === "imperial";
  let where;
  if (typeof args.latitude === "number" && typeof args.longitude === "number")
    where = `${args.latitude},${args.longitude}`;
  else if (typeof args.location === "string" && args.location.trim() !== "") where = args.location.trim();
  else throw new Error("give a location (city name) or latitude and longitude");
  let response;
  try {
    response = await ctx.fetch(`https://wttr.in/${encodeURIComponent(where)}?format=j1`, {
      headers: { accept: "application/json" },
    });
  } catch (error) {
    throw new Error(`could not reach wttr.in (offline or blocked?): ${error.message}`);
  }
  if (response.status === 404) throw new Error(`wttr.in does not know "${where}"`);
  if (!response.ok) throw new Error(`wttr.in answered HTTP ${response.status}`);
  const data = await response.json();
  const c = data.current_condition?.[0];
  if (!c) throw new Error(`wttr.in has no current conditions for "${where}"`);
  const area = data.nearest_area?.[0];
  const num = (v) => Number(v);
  return {
    location: {
      name: area?.areaName?.[0]?.value ?? null,
      country: area?.country?.[0]?.value ?? null,
      latitude: area ? num(area.latitude) : null,
      longitude: area ? num(area.longitude) : null,
    },
    observed_at: c.localObsDateTime ?? c.observation_time,
    temperature: num(imperial ? c.temp_F : c.temp_C),
    feels_like: num(imperial ? c.FeelsLikeF : c.FeelsLikeC),
    humidity_percent: num(c.humidity),
    wind_speed: num(imperial ? c.windspeedMiles : c.windspeedKmph),
    wind_direction: c.winddir16Point,
    precipitation: num(imperial ? c.precipInches : c.precipMM),
    conditions: (c.weatherDesc?.[0]?.value ?? "").toLowerCase(),
    units: imperial
      ? { temperature: "°F", wind: "mph", precipitation: "in" }
      : { temperature: "°C", wind: "km/h", precipitation: "mm" },
    source: "wttr.in",
  };
}
