// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function check_password_strength(args) {
  // Runs entirely inside the sandbox: the password is never sent anywhere. The estimate is a simple
  // pool-size entropy with penalties for the patterns attackers try first (common words, sequences, repeats).
  const { password } = args;
  if (typeof password !== "string" || password === "") throw new Error("password must be a non-empty string");
  if (password.length > 1000) throw new Error("password is longer than 1000 characters");
  const common = new Set(
    "123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123 baseball abc123 football monkey letmein 696969 shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321 superman 1qaz2wsx 7777777 121212 000000 qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster soccer harley batman andrew tigger sunshine iloveyou 2000 charlie robert thomas hockey ranger daniel starwars klaster 112233 george computer michelle jessica pepper 1111 zxcvbn 555555 11111111 131313 freedom 777777 pass maggie 159753 aaaaaa ginger princess joshua cheese amanda summer love ashley nicole chelsea biteme matthew access yankees 987654321 dallas austin thunder taylor matrix welcome admin passw0rd p@ssw0rd password1 qwerty123 changeme secret".split(
      " ",
    ),
  );
  const lower = password.toLowerCase();
  const classes = {
    lowercase: /[a-z]/.test(password),
    uppercase: /[A-Z]/.test(password),
    digits: /\d/.test(password),
    symbols: /[^A-Za-z0-9\s]/.test(password),
    spaces: /\s/.test(password),
    non_ascii: [...password].some((c) => c.codePointAt(0) > 127),
  };
  const pool =
    (classes.lowercase ? 26 : 0) +
    (classes.uppercase ? 26 : 0) +
    (classes.digits ? 10 : 0) +
    (classes.symbols ? 33 : 0) +
    (classes.spaces ? 1 : 0) +
    (classes.non_ascii ? 100 : 0);
  const length = [...password].length;
  let entropy = length * Math.log2(Math.max(pool, 2));
  const warnings = [];
  const deLeet = (text) =>
    text
      .replace(/[@4]/g, "a")
      .replace(/3/g, "e")
      .replace(/[1!]/g, "i")
      .replace(/0/g, "o")
      .replace(/[$5]/g, "s")
      .replace(/7/g, "t");
  // The trailing digits and symbols people append ("Password1!", "summer2024") come off before de-leeting:
  // de-leeted first, "1!" would turn into letters and hide the word.
  const stem = lower.replace(/[\d\W_]+$/, "");
  const candidates = [lower, deLeet(lower), stem, deLeet(stem)];
  if (candidates.some((c) => c !== "" && common.has(c))) {
    warnings.push("this is one of the most common passwords");
    entropy = Math.min(entropy, 10);
  }
  if (/(.)\1{2,}/.test(password)) {
    warnings.push("contains a character repeated three or more times");
    entropy -= 10;
  }
  const sequences = ["abcdefghijklmnopqrstuvwxyz", "0123456789", "qwertyuiop", "asdfghjkl", "zxcvbnm"];
  for (let k = 0; k + 4 <= lower.length; k++) {
    const chunk = lower.slice(k, k + 4);
    if (sequences.some((s) => s.includes(chunk) || [...s].reverse().join("").includes(chunk))) {
      warnings.push(`contains the keyboard or alphabet sequence "${chunk}"`);
      entropy -= 15;
      break;
    }
  }
  if (/(19|20)\d\d/.test(password)) {
    warnings.push("contains what looks like a year");
    entropy -= 5;
  }
  entropy = Math.max(0, Math.round(entropy * 10) / 10);
  const score = entropy < 28 ? 0 : entropy < 36 ? 1 : entropy < 60 ? 2 : entropy < 80 ? 3 : 4;
  const suggestions = [];
  if (length < 12)
    suggestions.push("use at least 12 characters; a passphrase of 4+ random words is easy to remember");
  if (Object.values(classes).filter(Boolean).length < 3)
    suggestions.push("mix upper- and lower-case letters, digits and symbols");
  if (warnings.length > 0) suggestions.push("avoid common words, sequences, repeats and dates");
  // Offline guessing at 10^10 guesses per second (a GPU rig against a fast hash), on average half the space.
  const seconds = 2 ** entropy / 2 / 1e10;
  const crackTime =
    seconds < 1
      ? "instantly"
      : seconds < 3600
        ? `${Math.ceil(seconds / 60)} minutes`
        : seconds < 86400 * 365
          ? `${Math.ceil(seconds / 86400)} days`
          : seconds < 86400 * 365 * 1e6
            ? `${Math.ceil(seconds / (86400 * 365))} years`
            : "centuries";
  return {
    score,
    rating: ["very weak", "weak", "fair", "strong", "very strong"][score],
    entropy_bits: entropy,
    length,
    character_classes: classes,
    estimated_offline_crack_time: crackTime,
    warnings,
    suggestions,
  };
}
