// IANA time zones named in a request, by zone id ("Europe/Paris") or by the city a zone is named after
// ("Paris", "New York", "Sao Paulo"): the runtime's own zone list, so no table goes stale.
import type { Span } from "./opaque.ts";

export interface ZoneMention extends Span {
  zone: string;
}

const ZONES = Intl.supportedValuesOf("timeZone");
const ZONE_IDS = new Set(ZONES);

/** City (lower case, spaces for underscores) → zone, for zones with a region prefix. */
const BY_CITY = new Map<string, string>();
for (const zone of ZONES) {
  const city = zone.split("/").at(-1);
  if (!city || !zone.includes("/")) continue;
  const key = city.replace(/_/g, " ").toLowerCase();
  // The first zone wins: the list is alphabetical, and no two regions share a commonly named city.
  if (!BY_CITY.has(key)) BY_CITY.set(key, zone);
}
// Common names that are not the zone's city.
for (const [alias, zone] of [
  ["nyc", "America/New_York"],
  ["san francisco", "America/Los_Angeles"],
  ["seattle", "America/Los_Angeles"],
  ["washington", "America/New_York"],
  ["boston", "America/New_York"],
  ["miami", "America/New_York"],
  ["beijing", "Asia/Shanghai"],
  ["mumbai", "Asia/Calcutta"],
  ["delhi", "Asia/Calcutta"],
  ["new delhi", "Asia/Calcutta"],
  ["bangalore", "Asia/Calcutta"],
  ["sao paulo", "America/Sao_Paulo"],
] as const)
  BY_CITY.set(alias, zone);

/**
 * Zone abbreviations in capitals, to the zone they are most often written for ("9am PST"): the runtime
 * names no abbreviation, and each stands for one region's standard and summer time alike.
 */
const ABBREVIATIONS = new Map<string, string>([
  ["UTC", "UTC"],
  ["GMT", "UTC"],
  ["PST", "America/Los_Angeles"],
  ["PDT", "America/Los_Angeles"],
  ["MST", "America/Denver"],
  ["MDT", "America/Denver"],
  ["CST", "America/Chicago"],
  ["CDT", "America/Chicago"],
  ["EST", "America/New_York"],
  ["EDT", "America/New_York"],
  ["BST", "Europe/London"],
  ["CET", "Europe/Paris"],
  ["CEST", "Europe/Paris"],
  ["EET", "Europe/Athens"],
  ["EEST", "Europe/Athens"],
  ["IST", "Asia/Calcutta"],
  ["SGT", "Asia/Singapore"],
  ["HKT", "Asia/Hong_Kong"],
  ["JST", "Asia/Tokyo"],
  ["KST", "Asia/Seoul"],
  ["AEST", "Australia/Sydney"],
  ["AEDT", "Australia/Sydney"],
]);

/** Zone cities and regions that are also ordinary words, read as places only when capitalised. */
const COMMON_WORDS = new Set(
  "acre atlantic canary casey central christmas continental davis easter eastern general jersey midway mountain north pacific palmer regina reunion south stanley troll universal wake west zulu".split(
    " ",
  ),
);

const PLACE_WORDS = new Set(["in", "for", "at", "from", "to"]);

/** Whether the word before `at` is "in", "for", … Scanned back by hand: a regex on the text before each
 * word would be quadratic in the request's length. */
function afterPlaceWord(text: string, at: number): boolean {
  let stop = at;
  while (stop > 0 && /\s/.test(text[stop - 1] as string)) stop--;
  let start = stop;
  while (start > 0 && /\p{L}/u.test(text[start - 1] as string)) start--;
  return stop < at && PLACE_WORDS.has(text.slice(start, stop).toLowerCase());
}

/** Zone ids and city names in the text, in text order; the longest name wins ("New York" over "York"). */
export function findZones(text: string): ZoneMention[] {
  const found: ZoneMention[] = [];
  for (const match of text.matchAll(/\b[A-Z][A-Za-z_]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?\b/g))
    if (ZONE_IDS.has(match[0]))
      found.push({ zone: match[0], start: match.index, end: match.index + match[0].length });
  const words = [...text.matchAll(/[\p{L}]+/gu)];
  for (let i = 0; i < words.length; i++) {
    const first = words[i];
    if (!first || found.some((f) => first.index >= f.start && first.index < f.end)) continue;
    const abbreviated = ABBREVIATIONS.get(first[0]);
    if (abbreviated) {
      found.push({ zone: abbreviated, start: first.index, end: first.index + first[0].length });
      continue;
    }
    for (let n = 3; n >= 1; n--) {
      const last = words[i + n - 1];
      if (!last) continue;
      const phrase = text.slice(first.index, last.index + last[0].length);
      if (/[^\p{L} ]/u.test(phrase)) continue;
      // Accents are dropped so that "São Paulo" finds America/Sao_Paulo.
      const key = phrase.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ");
      const zone = BY_CITY.get(key);
      // Cities are proper nouns: "nice weather" is not Europe/Paris's neighbour. Agents often type them in
      // lower case, so a city right after "in"/"for"/"at"/"from"/"to" counts too, unless the zone's name
      // is also a common word ("at christmas", "in central").
      if (
        zone &&
        (/^\p{Lu}/u.test(phrase) || (!COMMON_WORDS.has(key) && afterPlaceWord(text, first.index)))
      ) {
        found.push({ zone, start: first.index, end: last.index + last[0].length });
        i += n - 1;
        break;
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
