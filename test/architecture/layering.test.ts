// The folder rules of docs/architecture.md, read from the sources themselves: another folder is reached
// only through its index.ts, folders import each other without cycles, and the entry layers (cli, server)
// go through the composition root. Type-only imports count too: they tie folders together the same way.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { test } from "node:test";
import { SRC, sources } from "./sources.ts";

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

/** The folder of src a file belongs to ("" for src/index.ts). */
const folderOf = (file: string) => {
  const parts = relative(SRC, file).split("/");
  return parts.length > 1 ? (parts[0] as string) : "";
};

interface Edge {
  from: string;
  to: string;
  target: string;
}

const edges: Edge[] = sources(SRC).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(IMPORT)]
    .map((match) => match[1] as string)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({ from: file, to: resolve(dirname(file), specifier), target: specifier })),
);

const crossing = edges.filter(
  (edge) => folderOf(edge.from) !== folderOf(edge.to) && folderOf(edge.from) !== "",
);

test("another folder is imported only through its index.ts", () => {
  const inside = crossing
    .filter((edge) => relative(SRC, edge.to) !== `${folderOf(edge.to)}/index.ts`)
    .map((edge) => `${relative(SRC, edge.from)} → ${edge.target}`);
  assert.deepEqual(inside, []);
});

test("folders import each other without cycles", () => {
  const graph = new Map<string, Set<string>>();
  for (const edge of crossing) {
    const from = folderOf(edge.from);
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)?.add(folderOf(edge.to));
  }
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (folder: string, path: string[]) => {
    if (state.get(folder) === "done") return;
    if (state.get(folder) === "open") {
      cycles.push([...path.slice(path.indexOf(folder)), folder].join(" → "));
      return;
    }
    state.set(folder, "open");
    for (const next of graph.get(folder) ?? []) visit(next, [...path, folder]);
    state.set(folder, "done");
  };
  for (const folder of graph.keys()) visit(folder, []);
  assert.deepEqual(cycles, []);
});

test("the CLI and the servers reach the subsystems only through app, config and catalog", () => {
  const allowed = new Set(["app", "config", "catalog", "server", "cli"]);
  const reaching = crossing
    .filter((edge) => ["cli", "server"].includes(folderOf(edge.from)) && !allowed.has(folderOf(edge.to)))
    .map((edge) => `${relative(SRC, edge.from)} → ${edge.target}`);
  assert.deepEqual(reaching, []);
});

test("config is a leaf: it imports no other folder", () => {
  const fromConfig = crossing.filter((edge) => folderOf(edge.from) === "config").map((edge) => edge.target);
  assert.deepEqual(fromConfig, []);
});
