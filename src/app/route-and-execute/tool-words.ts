// The words a tool is known by, for telling whether a request asks for what it does.
import type { Tool } from "../../catalog/index.ts";
import { escapeRegExp } from "../../intent/index.ts";
import { properties } from "./doubts.ts";

/** A tool's own words: its name, description and parameter names. */
export function toolWords(tool: Tool): string {
  return `${tool.name} ${tool.description} ${Object.keys(properties(tool)).join(" ")}`;
}

/** A described tool's words: its own, its tags and its example requests. */
export function describedWords(tool: Tool): string {
  return [toolWords(tool), ...(tool.tags ?? []), ...(tool.examples ?? [])].join(" ");
}

/** A tool with neither example requests nor example calls: an imported function definition, say. */
export function isBare(tool: Tool): boolean {
  return (tool.examples?.length ?? 0) === 0 && (tool.exampleCalls?.length ?? 0) === 0;
}

/** Whether the request calls the tool by its name ("slugify \"Q3 Roadmap\"", "run convert_case on …"). */
export function namedInRequest(tool: Tool, query: string): boolean {
  const words = tool.name.split(/[_.\-\s]+/).filter(Boolean);
  if (words.length === 0) return false;
  return new RegExp(`(?<![\\w-])${words.map(escapeRegExp).join("[\\s_-]*")}(?![\\w-])`, "i").test(query);
}
