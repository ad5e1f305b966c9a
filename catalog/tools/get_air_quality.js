// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function get_air_quality(args, ctx) {
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
    const found = await get(
      `https://geocoding-api.open-meteo.com/v1/search?name=${encodeURIComponent(args.location.split(",")[0].trim())}&count=1&language=en&format=json`,
      "the Open-Meteo geocoder",
    );
    const hit = found.results?.[0];
    if (!hit) throw new Error(`no place called "${args.location}" was found`);
    place = {
      name: hit.name,
      country: hit.country ?? null,
      latitude: hit.latitude,
      longitude: hit.longitude,
    };
  }
  const data = await get(
    `https://air-quality-api.open-meteo.com/v1/air-quality?latitude=${place.latitude}&longitude=${place.longitude}&current=european_aqi,us_aqi,pm10,pm2_5,nitrogen_dioxide,ozone,uv_index&timezone=auto`,
    "the Open-Meteo air quality API",
  );
  const c = data.current;
  // US EPA AQI bands.
  const bands = [
    [50, "good"],
    [100, "moderate"],
    [150, "unhealthy for sensitive groups"],
    [200, "unhealthy"],
    [300, "very unhealthy"],
    [Infinity, "hazardous"],
  ];
  const category =
    c.us_aqi === null || c.us_aqi === undefined ? null : bands.find(([max]) => c.us_aqi <= max)[1];
  return {
    location: place,
    observed_at: c.time,
    us_aqi: c.us_aqi ?? null,
    us_aqi_category: category,
    european_aqi: c.european_aqi ?? null,
    pm2_5: c.pm2_5 ?? null,
    pm10: c.pm10 ?? null,
    nitrogen_dioxide: c.nitrogen_dioxide ?? null,
    ozone: c.ozone ?? null,
    uv_index: c.uv_index ?? null,
    units: { particles_and_gases: "μg/m³" },
    source: "open-meteo.com",
  };
}
