// Token counting for result budgets. A fixed ratio of characters to tokens is badly wrong for some text
// (o200k_base takes several characters per token on prose and code, far fewer on numbers). This estimator is a
// linear model over one regex pass, fitted against gpt-tokenizer's o200k_base on a mixed corpus (prose,
// code, JSON, numbers); test/dispatch/tokens.test.ts re-measures it and asserts the error band. The exact
// tokenizer is available as an option; it is loaded only when asked for (its rank tables are large).

const PIECES = /([A-Za-z]+)|([0-9]+)|([ \t]+)|(\r?\n+)|([!-/:-@[-`{-~])|([^\0-\x7f])/g;

// Weights fitted by least squares on relative error, then raised a little so that markdown (which the fit
// underestimates) is not undercounted: a budget should err towards cutting a little early.
const PER_WORD = 1.0;
const PER_LONG_WORD_CHAR = 0.24; // letters beyond the 6th in a word: long words split into more pieces
const PER_DIGIT_GROUP = 1.5; // o200k splits digit runs into groups of up to three
const PER_PUNCTUATION = 0.36; // often merged with neighbouring spaces or letters
const PER_SPACE_RUN = 1.2; // indentation runs and line breaks
const PER_NON_ASCII = 1;

export function estimateTokens(text: string): number {
  let tokens = 0;
  PIECES.lastIndex = 0;
  for (let m = PIECES.exec(text); m !== null; m = PIECES.exec(text)) {
    if (m[1] !== undefined) tokens += PER_WORD + PER_LONG_WORD_CHAR * Math.max(0, m[1].length - 6);
    else if (m[2] !== undefined) tokens += PER_DIGIT_GROUP * Math.ceil(m[2].length / 3);
    else if (m[3] !== undefined) tokens += m[3].length > 1 ? PER_SPACE_RUN : 0;
    else if (m[4] !== undefined) tokens += PER_SPACE_RUN;
    else if (m[5] !== undefined) tokens += PER_PUNCTUATION;
    else tokens += PER_NON_ASCII;
  }
  return Math.ceil(tokens);
}

/**
 * The most tokens `estimateTokens` gives per UTF-16 code unit, so a short text is known to fit a budget
 * without counting. Per piece: a digit run costs 1.5 per started group of three (1.5 for one digit, the
 * maximum), a word 1 + 0.24 per letter past the 6th (at most 1 per letter), a line break run 1.2 (at least
 * one character), a space run 1.2 for two or more, punctuation 0.36, a non-ASCII unit 1; the final ceil
 * adds less than 1, which `fitsBudget` allows for.
 */
estimateTokens.maxPerChar = 1.5;

export interface TokenCounter {
  (text: string): number;
  /** Most tokens one UTF-16 code unit of text can cost. */
  readonly maxPerChar: number;
}

export async function tokenCounter(kind: "estimate" | "exact"): Promise<TokenCounter> {
  if (kind === "estimate") return estimateTokens;
  const { countTokens } = await import("gpt-tokenizer");
  // o200k_base is a byte-level BPE: every token is at least one UTF-8 byte, and a UTF-16 code unit is at
  // most three UTF-8 bytes (a lone surrogate is encoded as U+FFFD, three bytes).
  return Object.assign((text: string) => countTokens(text), { maxPerChar: 3 });
}
