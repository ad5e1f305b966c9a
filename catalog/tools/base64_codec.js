// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function base64_codec(args) {
  // No btoa/atob/TextEncoder inside the isolate: UTF-8 and base64 are done by hand on byte arrays.
  const { action, text } = args;
  const urlSafe = args.url_safe === true;
  if (typeof text !== "string") throw new Error("text must be a string");
  // 400,000 characters of 3-byte UTF-8 encode to 1.6 million, inside the sandbox's result limit.
  if (text.length > 400_000) throw new Error("text is longer than 400,000 characters");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  if (action === "encode") {
    const bytes = [];
    for (const ch of text) {
      const c = ch.codePointAt(0);
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    let out = "";
    for (let k = 0; k < bytes.length; k += 3) {
      const n = (bytes[k] << 16) | ((bytes[k + 1] ?? 0) << 8) | (bytes[k + 2] ?? 0);
      out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63];
      out += k + 1 < bytes.length ? alphabet[(n >> 6) & 63] : "=";
      out += k + 2 < bytes.length ? alphabet[n & 63] : "=";
    }
    if (urlSafe) out = out.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return { action, result: out };
  }

  if (action === "decode") {
    const clean = text.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    const bad = clean.search(/[^A-Za-z0-9+/]/);
    if (bad >= 0) throw new Error(`not base64: unexpected character "${clean[bad]}" at position ${bad + 1}`);
    if (clean.length % 4 === 1) throw new Error("not base64: the length is impossible for base64 data");
    const bytes = [];
    for (let k = 0; k < clean.length; k += 4) {
      const chunk = clean.slice(k, k + 4);
      let n = 0;
      for (let j = 0; j < 4; j++) n = (n << 6) | (j < chunk.length ? alphabet.indexOf(chunk[j]) : 0);
      bytes.push((n >> 16) & 255);
      if (chunk.length > 2) bytes.push((n >> 8) & 255);
      if (chunk.length > 3) bytes.push(n & 255);
    }
    // Strict UTF-8 decoding: binary data is reported as such instead of being garbled.
    let out = "";
    for (let k = 0; k < bytes.length; ) {
      const b = bytes[k];
      const need = b < 0x80 ? 0 : b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 ? 2 : b >= 0xc2 && b < 0xe0 ? 1 : -1;
      let c = need === 0 ? b : need === 1 ? b & 31 : need === 2 ? b & 15 : b & 7;
      for (let j = 1; j <= need; j++) {
        const cont = bytes[k + j];
        if (cont === undefined || (cont & 0xc0) !== 0x80) c = -1;
        else c = (c << 6) | (cont & 63);
      }
      if (need < 0 || c < 0 || c > 0x10ffff) {
        const hex = bytes.map((x) => x.toString(16).padStart(2, "0")).join("");
        return { action, result: null, binary: true, hex: hex.slice(0, 20000) };
      }
      out += String.fromCodePoint(c);
      k += need + 1;
    }
    return { action, result: out };
  }
  throw new Error(`action must be "encode" or "decode", got "${action}"`);
}
