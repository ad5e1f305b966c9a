// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function generate_uuid(args) {
  // The isolate has no crypto.getRandomValues, so the random bits come from Math.random: fine for ids and
  // test data, NOT for secrets or tokens that must be unguessable.
  const count = args.count ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 100)
    throw new Error("count must be an integer from 1 to 100");
  const uppercase = args.uppercase === true;
  const uuids = [];
  for (let n = 0; n < count; n++) {
    const bytes = [];
    for (let k = 0; k < 16; k++) bytes.push(Math.floor(Math.random() * 256));
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
    const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    uuids.push(uppercase ? id.toUpperCase() : id);
  }
  return { uuids, version: 4, source: "Math.random (not cryptographically secure)" };
}
