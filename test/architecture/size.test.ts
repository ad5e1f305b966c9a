// Small files with one concept each: no function in src/ is over 120 lines and no file over 450. The
// TypeScript compiler's own parser finds the functions (declarations, methods, arrows and expressions). The
// few justified exceptions are listed here with the reason; the list may only shrink.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { SRC, sources } from "./sources.ts";

const MAX_FUNCTION_LINES = 120;
const MAX_FILE_LINES = 450;

/** `file` or `file:function`, each with why it is still larger than the rule. */
const EXCEPTIONS: Record<string, string> = {
  "embed/native/use-lite-graph.ts:buildUseLiteGraph":
    "USE-lite's graph as one list of ONNX nodes in encoder order: split, a reader would lose the order",
};

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(source);
  return `(anonymous at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
}

const oversized: string[] = [];
for (const file of sources(SRC)) {
  const text = readFileSync(file, "utf8");
  const path = relative(SRC, file);
  const lines = text.split("\n").length;
  if (lines > MAX_FILE_LINES && !(path in EXCEPTIONS)) oversized.push(`${path}: ${lines} lines`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const key = `${path}:${nameOf(node, source)}`;
      if (end - start + 1 > MAX_FUNCTION_LINES && !(key in EXCEPTIONS))
        oversized.push(`${key}: ${end - start + 1} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

test(`no function in src/ is over ${MAX_FUNCTION_LINES} lines and no file over ${MAX_FILE_LINES}`, () => {
  assert.deepEqual(oversized, []);
});
