// compromise (MIT, no network, ~2 MB, no native code) tags each word with its part of speech and knows
// common places, first names and organisations. It is loaded by the first request that needs it: every
// other command and process (the CLI's exec, validate, route) would otherwise pay for loading it at start,
// a large part of their time.
import { createRequire } from "node:module";
import type nlpType from "compromise";

const require = createRequire(import.meta.url);
let nlp: typeof nlpType | undefined;

export function loadNlp(): typeof nlpType {
  nlp ??= require("compromise") as typeof nlpType;
  return nlp;
}
