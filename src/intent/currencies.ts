// Currency names as written ("euros", "Canadian dollars", "yen", "$") to their ISO 4217 codes, for a
// parameter that takes a code. The names are the runtime's own (Intl.DisplayNames), so no table goes stale;
// a bare word several currencies share goes to the one it most often means ("dollars" is USD).
const display = new Intl.DisplayNames(["en"], { type: "currency" });

const BY_NAME = new Map<string, string>();
for (const code of Intl.supportedValuesOf("currency")) {
  const name = display.of(code)?.toLowerCase();
  if (!name || name === code.toLowerCase()) continue;
  BY_NAME.set(name, code);
  BY_NAME.set(`${name}s`, code);
  // "Japanese Yen" is also "yen": a last word only this currency's name ends with.
  const last = name.split(" ").at(-1) as string;
  BY_NAME.set(BY_NAME.has(last) ? `\u0000${last}` : last, code);
}
for (const [word, code] of [
  ["dollar", "USD"],
  ["dollars", "USD"],
  ["bucks", "USD"],
  ["us dollars", "USD"],
  ["pound", "GBP"],
  ["pounds", "GBP"],
  ["pounds sterling", "GBP"],
  ["sterling", "GBP"],
  ["euro", "EUR"],
  ["euros", "EUR"],
  ["yen", "JPY"],
  ["yuan", "CNY"],
  ["rupee", "INR"],
  ["rupees", "INR"],
  ["$", "USD"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["¥", "JPY"],
] as const)
  BY_NAME.set(word, code);

/** Whether a unit as written is a currency's code ("EUR"): three capitals. */
export function isCurrencyCode(text: string): boolean {
  return /^[A-Z]{3}$/.test(text.trim());
}

/** The ISO 4217 code a currency name as written stands for, or undefined. */
export function currencyCode(text: string): string | undefined {
  const trimmed = text.trim();
  if (isCurrencyCode(trimmed)) return trimmed;
  return BY_NAME.get(trimmed.toLowerCase().replace(/\s+/g, " "));
}

/** Whether a parameter takes a currency's code: its description says so, or its pattern is three letters. */
export function takesCurrencyCode(hint: string, pattern: unknown): boolean {
  return (
    /\biso[ -]?4217\b|\bcurrency code\b/.test(hint) ||
    (typeof pattern === "string" && /^\^?\[A-Za-z\]\{3\}\$?$/.test(pattern))
  );
}
