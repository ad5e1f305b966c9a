// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function ip_geolocation(args, ctx) {
  const ip = typeof args.ip === "string" ? args.ip.trim() : "";
  const v4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
  const v6 = /^[0-9a-fA-F:]+$/;
  if (!v4.test(ip) && !(v6.test(ip) && ip.includes(":")))
    throw new Error(`"${args.ip}" is not an IPv4 or IPv6 address`);
  let response;
  try {
    response = await ctx.fetch(`https://ipapi.co/${ip}/json/`, {
      headers: { "user-agent": "switchboard-catalog" },
    });
  } catch (error) {
    throw new Error(`could not reach ipapi.co (offline or blocked?): ${error.message}`);
  }
  if (response.status === 429) throw new Error("ipapi.co rate limit reached (HTTP 429)");
  if (!response.ok) throw new Error(`ipapi.co answered HTTP ${response.status}`);
  const r = await response.json();
  if (r.error) throw new Error(`ipapi.co: ${r.reason ?? "lookup failed"} for ${ip}`);
  return {
    ip: r.ip,
    city: r.city ?? null,
    region: r.region ?? null,
    country: r.country_name ?? null,
    country_code: r.country_code ?? null,
    latitude: r.latitude ?? null,
    longitude: r.longitude ?? null,
    timezone: r.timezone ?? null,
    organisation: r.org ?? null,
    source: "ipapi.co",
  };
}
