// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function check_password_breach(args, ctx) {
  // k-anonymity: only the first 5 hex characters of the password's SHA-1 leave the sandbox; the match is
  // made here against the suffixes Have I Been Pwned returns. The password itself is never sent.
  const { password } = args;
  if (typeof password !== "string" || password === "") throw new Error("password must be a non-empty string");
  if (password.length > 1000) throw new Error("password is longer than 1000 characters");

  // SHA-1 by hand (FIPS 180-4): the isolate has no crypto module.
  const bytes = [];
  for (const ch of password) {
    const c = ch.codePointAt(0);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  const bitLength = bytes.length * 8;
  bytes.push(0x80);
  while (bytes.length % 64 !== 56) bytes.push(0);
  for (let k = 7; k >= 0; k--)
    bytes.push(
      k >= 4 ? (Math.floor(bitLength / 2 ** 32) >>> (8 * (k - 4))) & 255 : (bitLength >>> (8 * k)) & 255,
    );
  const rotl = (x, n) => (x << n) | (x >>> (32 - n));
  const H = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Array(80);
  for (let block = 0; block < bytes.length; block += 64) {
    for (let t = 0; t < 80; t++) {
      const at = block + 4 * t;
      w[t] =
        t < 16
          ? (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]
          : rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    }
    let [a, b, c, d, e] = H;
    for (let t = 0; t < 80; t++) {
      const f =
        t < 20 ? (b & c) | (~b & d) : t < 40 ? b ^ c ^ d : t < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const temp = (rotl(a, 5) + f + e + k + w[t]) | 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = temp;
    }
    const next = [a, b, c, d, e];
    for (let k = 0; k < 5; k++) H[k] = (H[k] + next[k]) | 0;
  }
  const hash = H.map((x) => (x >>> 0).toString(16).padStart(8, "0"))
    .join("")
    .toUpperCase();
  const prefix = hash.slice(0, 5);
  const suffix = hash.slice(5);

  let response;
  try {
    response = await ctx.fetch(`https://api.pwnedpasswords.com/range/${prefix}`, {
      headers: { "add-padding": "true" },
    });
  } catch (error) {
    throw new Error(`could not reach api.pwnedpasswords.com (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`api.pwnedpasswords.com answered HTTP ${response.status}`);
  let count = 0;
  for (const line of (await response.text()).split(/\r?\n/)) {
    const [candidate, times] = line.split(":");
    if (candidate === suffix) count = Number(times);
  }
  return {
    breached: count > 0,
    times_seen: count,
    advice:
      count > 0
        ? "this password appears in known data breaches: do not use it anywhere"
        : "not found in known breaches (that alone does not make it strong)",
    sent_to_provider: `SHA-1 prefix ${prefix} only`,
  };
}
