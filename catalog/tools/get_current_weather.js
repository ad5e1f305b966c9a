// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function get_current_weather(args, ctx) {
  const imperial = args.units === "imperial";
  const get = async (url, what) => {
    let response;
    try {
      response = await ctx.fetch(url);
    } catch (error) {
      throw new Error(`could not reach ${what} (offline or blocked?): ${error.message}`);
    }
    if (!response.ok) throw new Error(`${what} answered HTTP ${response.status}`);
    return response.json();
  };
  let place;
  if (typeof args.latitude === "number" && typeof args.longitude === "number") {
    place = { name: null, country: null, latitude: args.latitude, longitude: args.longitude };
  } else {
    if (typeof args.location !== "string" || args.location.trim() === "")
      throw new Error("give a location (city name) or latitude and longitude");
    // "Paris, France" → search "Paris" and prefer a result in France.
    const [city, qualifier] = args.location.split(",").map((s) => s.trim());
    const found = await get(
      `https://geocoding-api.open-meteo.com/v1/search?name=${encodeURIComponent(city)}&count=10&language=en&format=json`,
      "the Open-Meteo geocoder",
    );
    const results = found.results ?? [];
    const q = qualifier?.toLowerCase();
    const hit =
      (q && results.find((r) => [r.country, r.country_code, r.admin1].some((v) => v?.toLowerCase() === q))) ||
      results[0];
    if (!hit) throw new Error(`no place called "${args.location}" was found`);
    place = {
      name: hit.name,
      country: hit.country ?? null,
      latitude: hit.latitude,
      longitude: hit.longitude,
    };
  }
  const units = imperial ? "&temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch" : "";
  const data = await get(
    `https://api.open-meteo.com/v1/forecast?latitude=${place.latitude}&longitude=${place.longitude}&current=temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m,wind_direction_10m&timezone=auto${units}`,
    "the Open-Meteo forecast API",
  );
  // WMO weather interpretation codes, as documented by Open-Meteo.
  const codes = {
    0: "clear sky",
    1: "mainly clear",
    2: "partly cloudy",
    3: "overcast",
    45: "fog",
    48: "depositing rime fog",
    51: "light drizzle",
    53: "drizzle",
    55: "dense drizzle",
    56: "freezing drizzle",
    57: "dense freezing drizzle",
    61: "light rain",
    63: "rain",
    65: "heavy rain",
    66: "freezing rain",
    67: "heavy freezing rain",
    71: "light snow",
    73: "snow",
    75: "heavy snow",
    77: "snow grains",
    80: "light rain showers",
    81: "rain showers",
    82: "violent rain showers",
    85: "snow showers",
    86: "heavy snow showers",
    95: "thunderstorm",
    96: "thunderstorm with hail",
    99: "thunderstorm with heavy hail",
  };
  const c = data.current;
  const compass = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][
    Math.round((c.wind_direction_10m % 360) / 45) % 8
  ];
  return {
    location: place,
    observed_at: c.time,
    temperature: c.temperature_2m,
    feels_like: c.apparent_temperature,
    humidity_percent: c.relative_humidity_2m,
    wind_speed: c.wind_speed_10m,
    wind_direction: compass,
    precipitation: c.precipitation,
    conditions: codes[c.weather_code] ?? `weather code ${c.weather_code}`,
    units: imperial
      ? { temperature: "°F", wind: "mph", precipitation: "in" }
      : { temperature: "°C", wind: "km/h", precipitation: "mm" },
    source: "open-meteo.com",
  };
}
