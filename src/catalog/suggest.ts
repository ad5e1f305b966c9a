// "Did you mean": the catalog names nearest a misspelled one, so an agent's typo gets a way forward.
import { distance } from "fastest-levenshtein";

const MAX_SUGGESTIONS = 3;

/**
 * The names at most about a third of the asked name's length away in edits (at least 2), or containing
 * it / contained in it (`weather` for `get_weather`), nearest first.
 */
export function nearestNames(asked: string, names: Iterable<string>): string[] {
  const wanted = asked.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: [string, number][] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const edits = distance(wanted, lower);
    const contains = wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower));
    if (edits <= limit || contains) scored.push([name, edits]);
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_SUGGESTIONS)
    .map(([name]) => name);
}

/** ` (did you mean "a", "b"?)` with the nearest names, or "" when none is near. */
export function didYouMean(asked: string, names: Iterable<string>): string {
  const near = nearestNames(asked, names);
  return near.length > 0 ? ` (did you mean ${near.map((n) => `"${n}"`).join(", ")}?)` : "";
}

/** `unknown tool "x"`, with the nearest names when there are any. */
export function unknownToolMessage(asked: string, names: Iterable<string>): string {
  return `unknown tool "${asked}"${didYouMean(asked, names)}`;
}
