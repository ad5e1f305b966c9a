// Opaque values in a request: tokens, blobs, hashes, identifiers and long numbers. To an embedding or BM25
// they are noise (one JWT drowns the words around it), but to argument filling they are the most precise
// evidence there is, so they are taken out of the routing text and kept as typed values.

export type OpaqueKind =
  | "jwt"
  | "url"
  | "email"
  | "uuid"
  | "iban"
  | "ip"
  | "card_number"
  | "phone"
  | "hash"
  | "base64"
  | "long_number";

export interface Span {
  start: number;
  end: number;
}

export interface OpaqueValue extends Span {
  kind: OpaqueKind;
  value: string;
}

// Order matters: a JWT is also base64-like, an email contains a domain, a card number is a long number.
const PATTERNS: [OpaqueKind, RegExp][] = [
  ["jwt", /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g],
  ["url", /\bhttps?:\/\/[^\s"'<>]+[^\s"'<>.,;:!?)]/g],
  // Bounded parts (RFC 5321: 64-character local part, 63-character labels): unbounded ones cost quadratic
  // time on a long query without "@", blocking the event loop.
  ["email", /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}\b/g],
  ["uuid", /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g],
  ["iban", /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g],
  // An IPv4 address or CIDR block ("192.168.40.0/22"): four octets of at most 255, not a version's parts.
  [
    "ip",
    /(?<![\d.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?:\/(?:3[0-2]|[12]?\d))?(?![\d.]*\d)/g,
  ],
  // A phone number with its country code ("+1 415 555 0199") or its area code in brackets ("(415) 555-0199").
  [
    "phone",
    /(?<![\w+])\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?![\d])|(?<![\w(])\(\d{3}\)\s?\d{3}[\s.-]\d{4}(?!\d)/g,
  ],
  // Most brands group by four; American Express by four, six and five.
  ["card_number", /\b\d{4}(?:[ -]?\d{4}){2}(?:[ -]?\d{1,4}){1,2}\b|\b\d{4}[ -]\d{6}[ -]\d{5}\b/g],
  ["hash", /\b(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9A-F]{32}|[0-9A-F]{40}|[0-9A-F]{64})\b/g],
  ["base64", /(?<![\w+/=])(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{6,}={0,2}(?![\w+/=])/g],
  ["long_number", /(?<![\d.])\d{9,}(?![\d.])/g],
];

/** Whether a base64-looking token is likely an encoded blob rather than a word, a number or an identifier. */
function looksEncoded(token: string): boolean {
  if (/^\d+$/.test(token)) return false;
  if (token.length % 4 !== 0) return false;
  if (/=$/.test(token)) return true;
  return token.length >= 12 && /[a-z]/.test(token) && /[A-Z]/.test(token) && /\d/.test(token);
}

/** Every opaque value in the text, non-overlapping, in text order. */
export function findOpaqueValues(text: string): OpaqueValue[] {
  const found: OpaqueValue[] = [];
  const taken = (start: number, end: number) => found.some((f) => start < f.end && end > f.start);
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken(start, end)) continue;
      if (kind === "base64" && !looksEncoded(match[0])) continue;
      if (kind === "iban" && !/\d{4}/.test(match[0].replace(/ /g, "").slice(4))) continue;
      found.push({ kind, value: match[0], start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

const LABEL: Record<OpaqueKind, string> = {
  jwt: "jwt",
  url: "url",
  email: "email address",
  uuid: "uuid",
  iban: "iban",
  ip: "ip address",
  card_number: "card number",
  phone: "phone number",
  hash: "hash",
  base64: "base64",
  long_number: "number",
};

/** The text to embed and score lexically: each opaque value replaced by the name of its kind. */
export function routingText(text: string, values: OpaqueValue[]): string {
  let out = "";
  let at = 0;
  for (const value of values) {
    out += `${text.slice(at, value.start)}${LABEL[value.kind]}`;
    at = value.end;
  }
  return (out + text.slice(at)).replace(/\s+/g, " ").trim();
}
