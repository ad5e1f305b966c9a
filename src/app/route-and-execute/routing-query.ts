// The text a request is routed on: its instruction, without what is data or envelope. Values are read
// from the whole request; only the words that say what is asked are routed.
import {
  dataKind,
  findOpaqueValues,
  opensRequest,
  pastedDataStart,
  requestStart,
  routingText,
} from "../../intent/index.ts";

/** The characters of a request the router reads: as many as it embeds and ranks on. */
export const ROUTING_WINDOW_CHARS = 1000;

/**
 * The text with a JSON document in it named by its kind ("from {\"order\": …} what's the sku of the last
 * item?"): its keys and strings are data, not words to route on.
 */
function withoutJson(text: string): string {
  const start = text.search(/[{[]\s*["{[]/);
  const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
  if (start < 0 || end <= start) return text;
  try {
    JSON.parse(text.slice(start, end + 1));
  } catch {
    return text;
  }
  return `${text.slice(0, start)}json${text.slice(end + 1)}`;
}

/** What is routed: the request's instruction, its opaque values named by kind, and the supplied argument names. */
export function routingQuery(text: string, supplied: Record<string, unknown>): string {
  // The text after "…: " is the data to work on, not the instruction ("count the words in: …").
  // Quoted text is data too ("slugify \"Hello World\"" is about slugs, not greetings).
  // Quotes go first: a colon inside them ("slugify 'Hello World: A Guide!'") does not start the data.
  // The data's kind is routed on in its place ("quick sanity check: (17+5)*3" is about an expression), and
  // a sentence after a list of numbers is instruction again ("…: 4, 8, 15. Give me the mean").
  // A label before the request ("User asks: …") is no part of it.
  // Lines pasted after a line that points to them ("Can you turn this into JSON records?\n\nsku;qty…") are
  // data too, routed on by their kind.
  const request = text.slice(requestStart(text));
  const lineData = pastedDataStart(request);
  const lead =
    lineData === undefined || /:\s+\S/.test(request.slice(0, lineData + 1))
      ? request
      : request.slice(0, lineData + 1);
  const pasted = lead === request ? undefined : dataKind(request.slice(lead.length));
  const instruction = `${withoutJson(lead)
    .replace(/"[^"]+"|(?<![\w])'[^']+'(?![\w])|“[^”]+”/g, "text")
    .replace(/^((?:\S+\s+){2,}\S+?):\s+(\S[\s\S]*)$/, (all: string, lead: string, data: string) => {
      // A question or an instruction after the colon is the request itself ("Wedding planning in Lisbon
      // (38.72, -9.14): what time is sunset …"), not its data.
      if (opensRequest(data)) return all;
      const kind = dataKind(data);
      return [lead, kind.label, kind.after].filter(Boolean).join(" ");
    })} ${pasted ? [pasted.label, pasted.after].join(" ") : ""}`;
  // The names of the arguments the agent sent say what the tool takes ("when was this" with a timestamp).
  const named = Object.keys(supplied)
    .map((k) => k.replace(/[_-]+/g, " "))
    .join(" ");
  // A long agent message is routed on a bounded window (its start states the request); values are read
  // from all of it.
  return ([routingText(instruction, findOpaqueValues(instruction)), named].join(" ").trim() || text).slice(
    0,
    ROUTING_WINDOW_CHARS,
  );
}
