// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function validate_card_number(args) {
  // Checks the format only (Luhn checksum, length, issuer prefix); it cannot tell whether a card exists.
  if (typeof args.number !== "string" && typeof args.number !== "number")
    throw new Error("number must be a string of digits");
  const raw = String(args.number);
  if (/[^\d\s-]/.test(raw)) throw new Error("number may contain only digits, spaces and dashes");
  const digits = raw.replace(/[\s-]/g, "");
  if (digits.length < 8 || digits.length > 19)
    throw new Error(`a card number has 8 to 19 digits, this has ${digits.length}`);
  let sum = 0;
  for (let k = 0; k < digits.length; k++) {
    let d = Number(digits[digits.length - 1 - k]);
    if (k % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  const luhn = sum % 10 === 0;
  const brands = [
    ["American Express", /^3[47]/, [15]],
    ["Visa", /^4/, [13, 16, 19]],
    ["Mastercard", /^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/, [16]],
    ["Discover", /^(6011|65|64[4-9])/, [16, 19]],
    ["JCB", /^35(2[89]|[3-8]\d)/, [16, 17, 18, 19]],
    ["Diners Club", /^3(0[0-5]|[689])/, [14, 16, 19]],
    ["UnionPay", /^62/, [16, 17, 18, 19]],
    ["Maestro", /^(5018|5020|5038|5893|6304|6759|676[1-3])/, [12, 13, 14, 15, 16, 17, 18, 19]],
  ];
  const match = brands.find(([, prefix]) => prefix.test(digits));
  const lengthOk = match ? match[2].includes(digits.length) : true;
  return {
    valid: luhn && lengthOk,
    luhn_valid: luhn,
    brand: match ? match[0] : "unknown",
    length: digits.length,
    length_valid_for_brand: lengthOk,
    masked: `${"•".repeat(digits.length - 4)}${digits.slice(-4)}`,
  };
}
