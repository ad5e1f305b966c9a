// Lists written as data: "[1, 2, 3]", "[[10, 20], [30, 40]]", "(40.71, -74.00)", "['Age', 'Income']".
// JSON.parse reads them once single quotes are double; only lists of numbers, strings and lists are kept,
// so "(see above)" or "[citation needed]" are no values. Written by hand: no library reads JSON-like
// lists out of prose. One pass with a depth counter; a list is at most MAX_LIST_CHARS long, which bounds the
// rescans of unbalanced brackets.
import type { Mention } from "./span.ts";

export interface ListMention extends Mention {
  value: unknown[];
}

const MAX_LIST_CHARS = 2_000;

function isData(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isData);
  return typeof value === "number" || typeof value === "string";
}

function parse(inner: string): unknown[] | undefined {
  const json = `[${inner.replace(/'([^'"]*)'/g, '"$1"')}]`;
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) && value.length > 0 && value.every(isData) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function findLists(text: string): ListMention[] {
  const lists: ListMention[] = [];
  let start = -1;
  let depth = 0;
  let close = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (depth === 0) {
      if (c === "[" || c === "(") {
        start = i;
        depth = 1;
        close = c === "[" ? "]" : ")";
      }
      continue;
    }
    if (i - start > MAX_LIST_CHARS) {
      depth = 0;
      i = start;
      continue;
    }
    if (c === (close === "]" ? "[" : "(")) depth++;
    else if (c === close && --depth === 0) {
      // "(1, 2)" is a tuple, "[[1, 2], [3, 4]]" a nested list: both are JSON arrays once the outer
      // brackets are square; inner round brackets become square too.
      const inner = text
        .slice(start + 1, i)
        .replace(/\(/g, "[")
        .replace(/\)/g, "]");
      const value = parse(inner);
      if (value && (value.length > 1 || close === "]"))
        lists.push({ start, end: i + 1, text: text.slice(start, i + 1), value });
    }
  }
  return lists;
}
