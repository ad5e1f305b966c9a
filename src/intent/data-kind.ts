// What kind of data a request hands over after its instruction ("count the words in: …", "quick sanity
// check: (17+5)*3 - 2^4"). The data itself is no words to route on, but its kind is: an expression is for
// a calculator, a JSON document for a JSON tool, rows of delimited values for a CSV one.
import { findShapes } from "./recognisers/shapes.ts";

/** Numbers with the separators of a list, and nothing else ("4, 8, 15, 16, 23, 42"). */
const NUMBER_LIST = /^\s*-?\d[\d.]*(?:\s*(?:,|;|\s|and)\s*-?\d[\d.]*)+/;

export interface DataPart {
  /** The words that name the data's kind, or "" for plain text. */
  label: string;
  /** What follows the data: a sentence after a list of numbers ("… 23, 42. Give me the mean") or a fence. */
  after: string;
}

export function dataKind(data: string): DataPart {
  const text = data.trim();
  // Data in backticks ("`[1735689600123] WARN …` - what UTC time is that?"): its kind, and what follows
  // the closing fence is instruction again.
  const fenced = /^(`{1,3})([\s\S]+?)\1/.exec(text);
  if (fenced) {
    const after = text.slice(fenced[0].length).replace(/^[\s\-–—:;,.]+/, "");
    return { label: dataKind(fenced[2] ?? "").label, after };
  }
  const list = NUMBER_LIST.exec(text);
  if (list) return { label: "numbers", after: text.slice(list[0].length).replace(/^[\s.;,]+/, "") };
  if (/^[[{]/.test(text)) {
    try {
      JSON.parse(text);
      return { label: "json", after: "" };
    } catch {
      // Not JSON after all: the other kinds below.
    }
  }
  // An expression may be followed by a sentence that asks about it ("… + 42. what does that come to?").
  const sentence = /^(.+?[.?!])\s+(?=\p{L})([\s\S]*)$/su.exec(text);
  for (const [head, after] of [[text, ""], ...(sentence ? [[sentence[1] ?? "", sentence[2] ?? ""]] : [])]) {
    const body = (head ?? "").replace(/[\s=?.!]+$/, "");
    if (findShapes(body).expressions.some((e) => e.text.length >= body.length * 0.8))
      return { label: "arithmetic expression", after: after ?? "" };
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim().length > 0);
  const delimiter = [",", ";", "\t", "|"].find((d) => {
    const counts = lines.map((l) => l.split(d).length - 1);
    return (
      lines.length >= 2 && counts[0] !== undefined && counts[0] > 0 && counts.every((c) => c === counts[0])
    );
  });
  if (delimiter) return { label: "csv rows", after: "" };
  return { label: "", after: "" };
}
