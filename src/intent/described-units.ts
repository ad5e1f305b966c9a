// A number stated in another unit than the one its parameter's description gives: "100µF" for a
// capacitance "in farads (F)" is 0.0001, "5 kilometers" for a distance "in meters" is 5000, "6 ft" for a
// height "in inches" is 72. js-quantities reads both units (symbols, SI prefixes, names) and converts
// between compatible ones; a unit it does not know, or of another kind, leaves the number as stated.
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";
import type { Param } from "./filler.ts";
import type { NumberMention } from "./mentions.ts";

/** The part of js-quantities used here (the package ships no types). */
interface Quantity {
  scalar: number;
  units(): string;
  kind(): string;
  isCompatible(other: Quantity | string): boolean;
  to(units: string): Quantity;
}
const Qty = createRequire(import.meta.url)("js-quantities") as (text: string) => Quantity;

/** Words js-quantities would read as a unit that are far more often plain words after a number. */
const NOT_UNITS = new Set("a an as at by in is it of on or to and per the".split(" "));

/** Temperatures have an origin as well as a scale: a reading and a difference convert differently. */
const TEMPERATURE = "temperature";

/** Units read before, including the ones js-quantities does not know (a failed read throws, which is slow). */
const READ = new LRUCache<string, { quantity?: Quantity }>({ max: 2048 });

function parse(unit: string): Quantity | undefined {
  let read = READ.get(unit);
  if (!read) {
    const quantity = parseUncached(unit);
    read = quantity ? { quantity } : {};
    READ.set(unit, read);
  }
  return read.quantity;
}

function parseUncached(unit: string): Quantity | undefined {
  const text = unit.trim();
  if (!text || NOT_UNITS.has(text.toLowerCase())) return undefined;
  for (const form of [text, text.replace(/ies$/, "y"), text.replace(/s$/, "")]) {
    try {
      const quantity = Qty(`1 ${form}`);
      if (quantity.kind() !== TEMPERATURE) return quantity;
    } catch {
      // Not a unit js-quantities knows: try the next form.
    }
  }
  return undefined;
}

/**
 * The units the description may give, most likely first: the words after "in" ("in meters", "in farads"),
 * then symbols in parentheses ("(F)"; "(C)" in "the capacitance (C)" names the quantity, not its unit, which
 * is why the stated unit picks the first one of its kind).
 */
function describedUnits(param: Param): Quantity[] {
  const description = typeof param.schema.description === "string" ? param.schema.description : "";
  const named = [...description.matchAll(/\bin\s+((?:square|cubic)\s+)?([A-Za-z/^²³]+)/g)].map(
    (m) => `${m[1] ? (m[1].startsWith("square") ? "sq" : "cu") : ""}${m[2] ?? ""}`,
  );
  const symbols = [...description.matchAll(/\(([^()\s,;]{1,8})\)/g)].map((m) => m[1] ?? "");
  return [...named, ...symbols].flatMap((unit) => parse(unit) ?? []);
}

/** The unit written right after a number ("100µF", "5 kilometers", "9.8 m/s^2"), as js-quantities reads it. */
function statedUnit(text: string, n: NumberMention): Quantity | undefined {
  const unit = /^\s?([A-Za-zµμΩ][\w/^²³µμ]*)/.exec(text.slice(n.end, n.end + 24))?.[1];
  return unit ? parse(unit) : undefined;
}

/** The factor that takes the number to the parameter's described unit; 1 when no conversion applies. */
export function unitFactor(text: string, n: NumberMention, param: Param): number {
  const stated = statedUnit(text, n);
  if (!stated) return 1;
  const described = describedUnits(param).find((unit) => stated.isCompatible(unit));
  if (!described || stated.units() === described.units()) return 1;
  return stated.to(described.units()).scalar;
}

/** The mention with its value in the parameter's described unit. */
export function inDescribedUnit(text: string, n: NumberMention, param: Param): NumberMention {
  const factor = unitFactor(text, n, param);
  return factor === 1 ? n : { ...n, value: Number((n.value * factor).toPrecision(12)) };
}
