// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function validate_iban(args) {
  if (typeof args.iban !== "string") throw new Error("iban must be a string");
  const iban = args.iban.replace(/[\s-]/g, "").toUpperCase();
  // Lengths from the SWIFT IBAN registry for the common countries; other countries get the checksum only.
  const lengths = {
    AD: 24,
    AE: 23,
    AT: 20,
    AZ: 28,
    BA: 20,
    BE: 16,
    BG: 22,
    BH: 22,
    BR: 29,
    CH: 21,
    CR: 22,
    CY: 28,
    CZ: 24,
    DE: 22,
    DK: 18,
    DO: 28,
    EE: 20,
    EG: 29,
    ES: 24,
    FI: 18,
    FO: 18,
    FR: 27,
    GB: 22,
    GE: 22,
    GI: 23,
    GL: 18,
    GR: 27,
    GT: 28,
    HR: 21,
    HU: 28,
    IE: 22,
    IL: 23,
    IS: 26,
    IT: 27,
    JO: 30,
    KW: 30,
    KZ: 20,
    LB: 28,
    LI: 21,
    LT: 20,
    LU: 20,
    LV: 21,
    MC: 27,
    MD: 24,
    ME: 22,
    MK: 19,
    MR: 27,
    MT: 31,
    MU: 30,
    NL: 18,
    NO: 15,
    PK: 24,
    PL: 28,
    PS: 29,
    PT: 25,
    QA: 29,
    RO: 24,
    RS: 22,
    SA: 24,
    SE: 24,
    SI: 19,
    SK: 24,
    SM: 27,
    TN: 24,
    TR: 26,
    UA: 29,
    VG: 24,
    XK: 20,
  };
  const problems = [];
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) {
    throw new Error(
      "an IBAN starts with a 2-letter country code and 2 check digits, followed by up to 30 letters or digits",
    );
  }
  const country = iban.slice(0, 2);
  const expected = lengths[country];
  if (expected !== undefined && iban.length !== expected)
    problems.push(`${country} IBANs have ${expected} characters, this has ${iban.length}`);
  // ISO 13616 check: move the first 4 characters to the end, letters → 10..35, the number mod 97 must be 1.
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const c of rearranged) {
    const value = c >= "A" ? String(c.charCodeAt(0) - 55) : c;
    for (const d of value) remainder = (remainder * 10 + Number(d)) % 97;
  }
  if (remainder !== 1) problems.push("the check digits do not match (mod-97 checksum failed)");
  return {
    valid: problems.length === 0,
    iban: iban.replace(/(.{4})/g, "$1 ").trim(),
    country,
    country_known: expected !== undefined,
    check_digits: iban.slice(2, 4),
    bban: iban.slice(4),
    problems,
  };
}
