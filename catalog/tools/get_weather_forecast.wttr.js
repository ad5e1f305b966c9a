// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function get_weather_forecast(args, ctx) {
  // Secondary provider, independent of Open-Meteo. wttr.in forecasts only 3 days, which the answer says.
  const imperial = args.units === "imperial";
  const days = args.days ?? 7;
  if (!Number.isInteger(days) || days < 1 || days > 16)
    throw new Error("days must be an integer from 1 to 16");
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
  const area = data.nearest_area?.[0];
  const num = (v) => Number(v);
  const forecast = (data.weather ?? []).slice(0, days).map((w) => {
    const hourly = w.hourly ?? [];
    const noon = hourly[Math.floor(hourly.length / 2)] ?? {};
    return {
      date: w.date,
      conditions: (noon.weatherDesc?.[0]?.value ?? "").toLowerCase().trim(),
      temperature_max: num(imperial ? w.maxtempF : w.maxtempC),
      temperature_min: num(imperial ? w.mintempF : w.mintempC),
      precipitation: hourly.reduce((sum, h) => sum + num(imperial ? h.precipInches : h.precipMM), 0),
      precipitation_probability_percent: hourly.length
        ? Math.max(...hourly.map((h) => num(h.chanceofrain)))
        : null,
      wind_speed_max: hourly.length
        ? Math.max(...hourly.map((h) => num(imperial ? h.windspeedMiles : h.windspeedKmph)))
        : null,
    };
  });
  return {
    location: {
      name: area?.areaName?.[0]?.value ?? null,
      country: area?.country?.[0]?.value ?? null,
      latitude: area ? num(area.latitude) : null,
      longitude: area ? num(area.longitude) : null,
    },
    days: forecast,
    units: imperial
      ? { temperature: "°F", wind: "mph", precipitation: "in" }
      : { temperature: "°C", wind: "km/h", precipitation: "mm" },
    source: "wttr.in",
    notes:
      days > forecast.length ? [`wttr.in forecasts only ${forecast.length} days; asked for ${days}`] : [],
  };
}
