// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function ip_geolocation(args, ctx) {
  const ip = typeof args.ip === "string" ? args.ip.trim() : "";
  const v4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
  const v6 = /^[0-9a-fA-F:]+$/;
  if (!v4.test(ip) && !(v6.test(ip) && ip.includes(":")))
    throw new Error(`"${args.ip}" is not an IPv4 or IPv6 address`);
  let response;
  try {
    response = await ctx.fetch(`https://ipwho.is/${ip}`);
  } catch (error) {
    throw new Error(`could not reach ipwho.is (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`ipwho.is answered HTTP ${response.status}`);
  const r = await response.json();
  if (r.success === false) throw new Error(`ipwho.is: ${r.message ?? "lookup failed"} for ${ip}`);
  return {
    ip: r.ip,
    city: r.city ?? null,
    region: r.region ?? null,
    country: r.country ?? null,
    country_code: r.country_code ?? null,
    latitude: r.latitude ?? null,
    longitude: r.longitude ?? null,
    timezone: r.timezone?.id ?? null,
    organisation: r.connection?.org ?? null,
    source: "ipwho.is",
  };
}
