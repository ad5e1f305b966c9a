// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function jwt_decode(args) {
  // Decodes only: without the issuer's key the signature cannot be verified, and the result says so.
  const { token } = args;
  if (typeof token !== "string") throw new Error("token must be a string");
  const parts = token
    .trim()
    .replace(/^Bearer\s+/i, "")
    .split(".");
  if (parts.length !== 3) throw new Error(`a JWT has 3 dot-separated parts, this has ${parts.length}`);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const decodePart = (part, label) => {
    if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new Error(`the ${label} is not base64url`);
    const bytes = [];
    let bits = 0;
    let buffer = 0;
    for (const c of part) {
      buffer = (buffer << 6) | alphabet.indexOf(c);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes.push((buffer >> bits) & 255);
      }
    }
    // UTF-8 to string via percent-escapes: decodeURIComponent is the UTF-8 decoder the isolate has.
    let text;
    try {
      text = decodeURIComponent(bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""));
    } catch {
      throw new Error(`the ${label} is not UTF-8 text`);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`the ${label} is not JSON`);
    }
  };
  const header = decodePart(parts[0], "header");
  const payload = decodePart(parts[1], "payload");
  const now = Math.floor(Date.now() / 1000);
  const time = (seconds) => (typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : null);
  return {
    header,
    payload,
    issued_at: time(payload.iat),
    expires_at: time(payload.exp),
    not_before: time(payload.nbf),
    expired: typeof payload.exp === "number" ? payload.exp <= now : null,
    signature_verified: false,
  };
}
