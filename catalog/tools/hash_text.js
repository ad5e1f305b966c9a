// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function hash_text(args) {
  // The isolate has no node:crypto, WebCrypto or TextEncoder, so the digests are written out here from their
  // specifications (FIPS 180-4 for SHA-1/SHA-256, RFC 1321 for MD5, ISO-HDLC for CRC-32).
  const { text } = args;
  const algorithm = args.algorithm ?? "sha256";
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 1_000_000) throw new Error("text is longer than 1,000,000 characters");

  function utf8(s) {
    const out = [];
    for (const ch of s) {
      const c = ch.codePointAt(0);
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }
  const hex = (words, littleEndian) =>
    words
      .map((w) => {
        const v = littleEndian
          ? ((w & 255) << 24) | (((w >>> 8) & 255) << 16) | (((w >>> 16) & 255) << 8) | (w >>> 24)
          : w;
        return (v >>> 0).toString(16).padStart(8, "0");
      })
      .join("");
  const rotl = (x, n) => (x << n) | (x >>> (32 - n));
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  // Merkle–Damgård padding into 32-bit words; MD5 stores words and the length little-endian.
  function pad(bytes, littleEndian) {
    const bitLength = bytes.length * 8;
    const padded = bytes.slice();
    padded.push(0x80);
    while (padded.length % 64 !== 56) padded.push(0);
    const hi = Math.floor(bitLength / 2 ** 32);
    const lo = bitLength >>> 0;
    const lengthBytes = [];
    for (let k = 3; k >= 0; k--) lengthBytes.push((hi >>> (8 * k)) & 255);
    for (let k = 3; k >= 0; k--) lengthBytes.push((lo >>> (8 * k)) & 255);
    padded.push(...(littleEndian ? lengthBytes.reverse() : lengthBytes));
    const words = [];
    for (let k = 0; k < padded.length; k += 4) {
      words.push(
        littleEndian
          ? padded[k] | (padded[k + 1] << 8) | (padded[k + 2] << 16) | (padded[k + 3] << 24)
          : (padded[k] << 24) | (padded[k + 1] << 16) | (padded[k + 2] << 8) | padded[k + 3],
      );
    }
    return words;
  }

  function sha256(bytes) {
    const K = [];
    const H = [];
    // The constants are the fractional parts of the square and cube roots of the first primes.
    const primes = [];
    for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
    for (let k = 0; k < 64; k++) K.push(((primes[k] ** (1 / 3) % 1) * 2 ** 32) | 0);
    for (let k = 0; k < 8; k++) H.push(((primes[k] ** 0.5 % 1) * 2 ** 32) | 0);
    const words = pad(bytes, false);
    const w = new Array(64);
    for (let block = 0; block < words.length; block += 16) {
      for (let t = 0; t < 64; t++) {
        if (t < 16) w[t] = words[block + t];
        else {
          const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
          const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
          w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
        }
      }
      let [a, b, c, d, e, f, g, h] = H;
      for (let t = 0; t < 64; t++) {
        const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        h = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      const next = [a, b, c, d, e, f, g, h];
      for (let k = 0; k < 8; k++) H[k] = (H[k] + next[k]) | 0;
    }
    return hex(H, false);
  }

  function sha1(bytes) {
    const H = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
    const words = pad(bytes, false);
    const w = new Array(80);
    for (let block = 0; block < words.length; block += 16) {
      for (let t = 0; t < 80; t++)
        w[t] = t < 16 ? words[block + t] : rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
      let [a, b, c, d, e] = H;
      for (let t = 0; t < 80; t++) {
        let f;
        let k;
        if (t < 20) [f, k] = [(b & c) | (~b & d), 0x5a827999];
        else if (t < 40) [f, k] = [b ^ c ^ d, 0x6ed9eba1];
        else if (t < 60) [f, k] = [(b & c) | (b & d) | (c & d), 0x8f1bbcdc];
        else [f, k] = [b ^ c ^ d, 0xca62c1d6];
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
    return hex(H, false);
  }

  function md5(bytes) {
    const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
    const K = [];
    for (let k = 0; k < 64; k++) K.push((Math.abs(Math.sin(k + 1)) * 2 ** 32) | 0);
    const H = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    const words = pad(bytes, true);
    for (let block = 0; block < words.length; block += 16) {
      let [a, b, c, d] = H;
      for (let t = 0; t < 64; t++) {
        let f;
        let g;
        if (t < 16) [f, g] = [(b & c) | (~b & d), t];
        else if (t < 32) [f, g] = [(d & b) | (~d & c), (5 * t + 1) % 16];
        else if (t < 48) [f, g] = [b ^ c ^ d, (3 * t + 5) % 16];
        else [f, g] = [c ^ (b | ~d), (7 * t) % 16];
        const shift = S[(t >> 4) * 4 + (t % 4)];
        const sum = (a + f + K[t] + words[block + g]) | 0;
        a = d;
        d = c;
        c = b;
        b = (b + rotl(sum, shift)) | 0;
      }
      const next = [a, b, c, d];
      for (let k = 0; k < 4; k++) H[k] = (H[k] + next[k]) | 0;
    }
    return hex(H, true);
  }

  function crc32(bytes) {
    let crc = -1;
    for (const byte of bytes) {
      crc ^= byte;
      for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
    }
    return ((crc ^ -1) >>> 0).toString(16).padStart(8, "0");
  }

  const digests = { sha256, sha1, md5, crc32 };
  if (!Object.hasOwn(digests, algorithm))
    throw new Error(`algorithm must be one of ${Object.keys(digests).join(", ")}, got "${algorithm}"`);
  return { algorithm, hex: digests[algorithm](utf8(text)), bytes: utf8(text).length };
}
