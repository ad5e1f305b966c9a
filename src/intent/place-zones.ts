// Cities and zone names to time-zone parameters, source and target by the words around them.
import type { Filler, MissingField, Param } from "./filler.ts";
import type { Span } from "./opaque.ts";
// "there" points at a place, but not as a sentence's subject ("there is a meeting", "is there a …").
export const PLACE_REFERENCE =
  /\bwhere\s+(?:\S+\s+){0,3}?(?:lives?|is|are|based|located|stays?)\b|\b(?:their|his|her|your|our|my|the \w+'s)\s+(?:local\s+)?(?:time\s?zone|location|city|country|place|local time)\b|(?<!\b(?:is|are|was|were)\s+)\b(?:over\s+)?there\b(?!\s+(?:is|are|was|were|will|be|been|isn't|aren't|must|might|may|could|should|would)\b)(?!['’])/i;

/** Zone parameters: a "to"/"in" zone after another zone is the target; one zone goes to the first. */
export function fillZones(f: Filler, params: Param[]): MissingField[] {
  const zoneParams = params.filter((p) => p.type === "string" && /zone/.test(p.name) && !f.has(p));
  if (zoneParams.length === 0) return [];
  const zones = f.mentions.zones.filter((z) => f.free(z));
  const target = zoneParams.find((p) => /^to|target|dest/.test(p.name));
  const source = zoneParams.find((p) => /^from|source/.test(p.name));
  const lower = f.text.toLowerCase();
  const afterTo = (z: Span) =>
    /\b(?:to|into|in)\s+(?:the\s+)?$/.test(lower.slice(Math.max(0, z.start - 12), z.start));
  // "3pm my time": the time is in the asker's own zone, which the request does not name; every zone it
  // names is where the time is wanted, and the source is asked for rather than left to its default.
  const own = /\b(?:my|our)\s+(?:own\s+|local\s+)?time\b(?!\s*zone)/i.exec(f.text);
  const ownMissing: MissingField[] = [];
  if (own && target && source) {
    const to = zones.find(afterTo) ?? zones[0];
    if (to) f.set(target, to.zone, to, "city or zone name", "zone");
    ownMissing.push({
      field: source.name,
      schema: source.schema,
      reason: `the request gives the time in "${own[0]}", a zone it does not name`,
    });
  } else if (target && source) {
    // The zone a stated time is in is the source ("… when it is 3pm on 2024-07-01 in New York", "3pm
    // London time"): the zone right after the time, or right before "time". Otherwise "to" names the target.
    const stated = [...f.mentions.times, ...f.mentions.datetimes];
    // "from London to Sydney time": a zone after "from" is the source, whatever the words after the other.
    const named = zones.find((z) =>
      /\bfrom\s+(?:the\s+)?$/i.test(f.text.slice(Math.max(0, z.start - 12), z.start)),
    );
    // "9am PST in London": a zone written right after the time is the time's own.
    const adjacent = zones.find((z) =>
      stated.some((t) => t.end <= z.start && /^\s*$/.test(f.text.slice(t.end, z.start))),
    );
    const ofTime =
      named ??
      adjacent ??
      zones.find(
        (z) =>
          stated.some(
            (t) =>
              t.end <= z.start &&
              /^[\s\w-]{0,20}\b(?:in|at)\s+(?:the\s+)?$/i.test(f.text.slice(t.end, z.start)),
          ) ||
          (/^\s+time\b/i.test(f.text.slice(z.end, z.end + 8)) && (stated.length > 0 || zones.length >= 2)),
      );
    const to =
      zones.length >= 2
        ? (zones.find(
            (z) =>
              z !== ofTime && afterTo(z) && !/^\s+time\b/i.test(f.text.slice(z.end, z.end + 8)) && ofTime,
          ) ?? zones.filter((z) => z !== ofTime).at(-1))
        : zones.find((z) => z !== ofTime && afterTo(z));
    const from = ofTime && ofTime !== to ? ofTime : zones.find((z) => z !== to);
    // One zone named twice is no conversion ("2pm in New York … when it's 2pm in New York"): the target
    // is asked for.
    const same = to && from && to.zone === from.zone;
    if (to && !same) f.set(target, to.zone, to, "city or zone name", "zone");
    else if (to) f.claim(to);
    if (from) f.set(source, from.zone, from, "city or zone name", "zone");
  } else {
    for (const [i, param] of zoneParams.entries()) {
      const zone = zones[i];
      if (zone) f.set(param, zone.zone, zone, "city or zone name", "zone");
    }
  }
  // A place the request names that no zone matches ("in Atlantis") must not fall back to a default zone.
  const missing: MissingField[] = [...ownMissing];
  // Nor may one it only points at ("where the customer lives", "their local time", "over there").
  const pointed = PLACE_REFERENCE.exec(f.text);
  const open = zoneParams.find((p) => !f.has(p));
  if (pointed && open && zones.length === 0)
    missing.push({
      field: open.name,
      schema: open.schema,
      reason: `the request refers to "${pointed[0]}" but names no place`,
    });
  for (const match of f.text.matchAll(
    /\b(?:in|at|for|to)\s+((?:\p{Lu}[\p{L}'-]+)(?:\s+\p{Lu}[\p{L}'-]+)*)/gu,
  )) {
    const name = match[1] ?? "";
    const start = match.index + match[0].length - name.length;
    const span = { start, end: start + name.length };
    if (!f.free(span) || f.mentions.zones.some((z) => z.start <= start && z.end >= span.end)) continue;
    if (/^(?:UTC|GMT|I)$/.test(name)) continue;
    const param =
      zoneParams.find((p) => !f.has(p) && (zoneParams.length === 1 || /^to|target/.test(p.name))) ??
      zoneParams[0];
    if (param && !missing.some((m) => m.field === param.name))
      missing.push({
        field: param.name,
        schema: param.schema,
        reason: `no time zone is known for "${name}"`,
      });
  }
  return missing;
}
