// Units stated with numbers, read against the unit or kind a parameter's description gives. A number in
// another unit of the described kind is converted ("100µF" for a capacitance "in farads (F)" is 0.0001,
// "6 ft" for a height "in inches" is 72), and a number whose unit is of a parameter's kind is a cue for it
// ("60 degrees Celsius" for "the initial temperature (Celsius)", "20 kg" for a mass). js-quantities reads
// unit symbols, SI prefixes and names, and converts between compatible units; a unit it does not know
// leaves the number as stated.
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";
import { isCurrencyCode } from "./currencies.ts";
import type { Param } from "./filler.ts";
import type { NumberMention } from "./mentions.ts";

/** The part of js-quantities used here (the package ships no types). */
interface Quantity {
  scalar: number;
  units(): string;
  kind(): string;
  isCompatible(other: Quantity | string): boolean;
  to(units: string): Quantity;
  eq(other: Quantity): boolean;
}
const Qty = createRequire(import.meta.url)("js-quantities") as (text: string) => Quantity;

/** Words js-quantities would read as a unit that are far more often plain words after a number. */
const NOT_UNITS = new Set("a an as at by in is it of on or to and per the".split(" "));

/** Temperatures have an origin as well as a scale: a reading and a difference convert differently. */
const TEMPERATURE = "temperature";

/** Parameter words that name a kind of quantity js-quantities tells ("a height" is a length). */
const KIND_WORDS: Readonly<Record<string, readonly string[]>> = {
  length: ["length", "distance", "height", "width", "depth", "radius", "diameter", "altitude", "elevation"],
  mass: ["mass", "weight"],
  time: ["time", "duration", "period"],
  temperature: ["temperature", "temp"],
  speed: ["speed", "velocity"],
  acceleration: ["acceleration"],
  area: ["area"],
  volume: ["volume"],
  energy: ["energy"],
  power: ["power"],
  pressure: ["pressure"],
  frequency: ["frequency"],
  force: ["force"],
  current: ["current"],
  potential: ["voltage", "potential"],
  resistance: ["resistance"],
  capacitance: ["capacitance"],
  inductance: ["inductance"],
};

/** The forms js-quantities reads of a unit as written: "degrees Celsius" is degC, "meters per second" m/s. */
function forms(unit: string): string[] {
  const text = unit
    .trim()
    .replace(
      /^(?:degrees?\s*|°\s*)(c|celsius|centigrade|f|fahrenheit|k|kelvin)$/i,
      (_, scale: string) => `deg${scale[0]?.toUpperCase()}`,
    )
    .replace(/^(?:square|sq)\s+(\S+)$/i, "$1^2")
    .replace(/^cubic\s+(\S+)$/i, "$1^3")
    .replace(/\s+per\s+/i, "/")
    .replace(/²/g, "^2")
    .replace(/³/g, "^3");
  const singular = (w: string) => w.replace(/ies$/, "y").replace(/(?<=[a-z]{3})s$/, "");
  return [...new Set([text, singular(text), text.toLowerCase(), singular(text.toLowerCase())])];
}

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
  if (!unit.trim() || NOT_UNITS.has(unit.trim().toLowerCase())) return undefined;
  for (const form of forms(unit)) {
    try {
      return Qty(`1 ${form}`);
    } catch {
      // Not a unit js-quantities knows: try the next form.
    }
  }
  return undefined;
}

/**
 * Whether two units as written are of one kind ("miles" and "feet"; "EUR" and "GBP", which js-quantities
 * does not read): a list of targets.
 */
export function sameKindUnit(a: string, b: string): boolean {
  if (isCurrencyCode(a) && isCurrencyCode(b)) return true;
  const first = parse(a);
  const second = parse(b);
  return first !== undefined && second !== undefined && first.kind() === second.kind();
}

/** Whether a word names a unit ("kilograms", "litres", "seconds"). */
export function namesUnit(word: string): boolean {
  return parse(word) !== undefined;
}

/**
 * The one enum value that names the unit written, in another form ("milliliters" for "ml", "cups" for
 * "cup", "fluid ounces" for "fl_oz"); undefined when none or several do.
 */
export function enumUnitFor(written: string, values: readonly unknown[]): string | undefined {
  const unit = parse(written);
  if (!unit) return undefined;
  const same = values.filter((v): v is string => {
    if (typeof v !== "string") return false;
    const named = parse(v) ?? parse(v.replace(/[_\s]+/g, ""));
    return named !== undefined && named.kind() === unit.kind() && named.eq(unit);
  });
  return same.length === 1 ? same[0] : undefined;
}

function descriptionOf(param: Param): string {
  return typeof param.schema.description === "string" ? param.schema.description : "";
}

/**
 * The units the description may give, most likely first: the words after "in" ("in meters", "in square
 * feet"), then symbols or names in parentheses ("(F)", "(Celsius)"; "(C)" in "the capacitance (C)" names
 * the quantity, not its unit, which is why a stated unit takes the first one of its kind).
 */
function describedUnits(param: Param): Quantity[] {
  let units = UNITS_OF.get(param);
  if (!units) {
    units = readDescribedUnits(param);
    UNITS_OF.set(param, units);
  }
  return units;
}

/**
 * Each parameter's described units and kinds, read once: the number placement asks for them for every
 * number and every peer.
 */
const UNITS_OF = new WeakMap<Param, Quantity[]>();
const KINDS_OF = new WeakMap<Param, Set<string>>();

function readDescribedUnits(param: Param): Quantity[] {
  const description = descriptionOf(param);
  const named = [...description.matchAll(/\bin\s+((?:square|cubic|degrees?)\s+)?([A-Za-z/^²³°]+)/g)].map(
    (m) => `${m[1] ?? ""}${m[2] ?? ""}`,
  );
  const bracketed = [...description.matchAll(/\(([^()\s,;]{1,12})\)/g)].map((m) => m[1] ?? "");
  return [...named, ...bracketed].flatMap((unit) => parse(unit) ?? []);
}

/** Units of several words: a temperature scale, a square or cube, or a rate ("meters per second"). */
const SEVERAL_WORDS =
  /^(?:(?:degrees?|°)\s*(?:c|celsius|centigrade|f|fahrenheit|k|kelvin)|(?:square|sq|cubic)\s+[a-z]+|[a-z]+\s+per\s+[a-z]+)\b/i;

/** The unit written right after a number ("100µF", "5 kilometers", "degrees Celsius", "meters per second"). */
function statedUnit(text: string, n: NumberMention): Quantity | undefined {
  const after = text.slice(n.end, n.end + 40).replace(/^\s/, "");
  const several = SEVERAL_WORDS.exec(after)?.[0];
  const one = /^[A-Za-zµμΩ°][\w/^²³µμ°]*/.exec(after)?.[0];
  return (several ? parse(several) : undefined) ?? (one ? parse(one) : undefined);
}

/** The factor that takes the number to the parameter's described unit; 1 when no conversion applies. */
export function unitFactor(text: string, n: NumberMention, param: Param): number {
  const stated = statedUnit(text, n);
  if (!stated || stated.kind() === TEMPERATURE) return 1;
  const described = describedUnits(param).find((unit) => stated.isCompatible(unit));
  if (!described || stated.units() === described.units()) return 1;
  return stated.to(described.units()).scalar;
}

/** The kinds of quantity a parameter takes: of the units its description gives, and named by its words. */
function kindsOf(param: Param): Set<string> {
  let kinds = KINDS_OF.get(param);
  if (!kinds) {
    kinds = new Set(describedUnits(param).map((unit) => unit.kind()));
    for (const [kind, words] of Object.entries(KIND_WORDS))
      if (param.words.some((w) => words.includes(w))) kinds.add(kind);
    KINDS_OF.set(param, kinds);
  }
  return kinds;
}

/**
 * Whether the number's unit is of a kind `param` takes and not every one of `peers` (the numeric
 * parameters) takes: a cue that tells parameters apart ("20 kg" is the mass, not the temperature).
 */
export function unitKindCue(text: string, n: NumberMention, param: Param, peers: readonly Param[]): boolean {
  const kind = statedUnit(text, n)?.kind();
  if (!kind || !kindsOf(param).has(kind)) return false;
  return !peers.every((p) => kindsOf(p).has(kind));
}

/** The mention with its value in the parameter's described unit. */
export function inDescribedUnit(text: string, n: NumberMention, param: Param): NumberMention {
  const factor = unitFactor(text, n, param);
  return factor === 1 ? n : { ...n, value: Number((n.value * factor).toPrecision(12)) };
}
