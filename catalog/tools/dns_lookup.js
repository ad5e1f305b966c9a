// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function dns_lookup(args, ctx) {
  const name = typeof args.name === "string" ? args.name.trim().replace(/\.$/, "").toLowerCase() : "";
  const type = (args.type ?? "A").toUpperCase();
  if (
    !/^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name)
  )
    throw new Error(`"${args.name}" is not a valid domain name`);
  const types = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, CAA: 257 };
  if (!Object.hasOwn(types, type)) throw new Error(`type must be one of ${Object.keys(types).join(", ")}`);
  let response;
  try {
    // DNS over HTTPS, JSON flavour: the sandbox has no sockets, only ctx.fetch.
    response = await ctx.fetch(`https://dns.google/resolve?name=${encodeURIComponent(name)}&type=${type}`);
  } catch (error) {
    throw new Error(`could not reach dns.google (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`dns.google answered HTTP ${response.status}`);
  const body = await response.json();
  const statuses = { 0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN", 5: "REFUSED" };
  const names = Object.fromEntries(Object.entries(types).map(([k, v]) => [v, k]));
  return {
    name,
    type,
    status: statuses[body.Status] ?? `RCODE ${body.Status}`,
    records: (body.Answer ?? []).map((a) => ({
      name: a.name.replace(/\.$/, ""),
      type: names[a.type] ?? String(a.type),
      ttl: a.TTL,
      data: a.data,
    })),
    source: "dns.google",
  };
}
