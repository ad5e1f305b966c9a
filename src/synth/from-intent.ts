// The second code provider: the configured LLM (src/llm) writes the tool from an intent, and every
// structured failure is sent back to it for another attempt, up to `maxRounds` (the closed
// self-correction loop).
import { z } from "zod";
import type { Capabilities } from "../catalog/index.ts";
import { type ChatMessage, chatCompletion, type LlmConfig } from "../llm/index.ts";
import {
  type SynthesisDeps,
  type SynthesisFailure,
  type SynthesisOutcome,
  synthesize,
} from "./synthesize.ts";

export interface IntentRequest {
  /** What the tool should do, in plain words (the unmatched query). */
  intent?: string;
  /** Fixed by the caller when given; otherwise the model proposes them. */
  name?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Arguments the tool will be called with first; used as its test call. */
  arguments?: Record<string, unknown>;
  examples?: { arguments: Record<string, unknown>; expect?: unknown }[];
  /** Granted by the caller, never by the model. */
  capabilities?: Capabilities;
  /** Inspection reports (src/browser) of the pages the intent names: static or dynamic, list selectors. */
  pages?: { url: string; report: unknown }[];
  category?: string;
}

export interface IntentDeps extends SynthesisDeps {
  llm: LlmConfig;
  /** Attempts, counting the first (default 3). */
  maxRounds?: number;
  /** Names already in use: the model must pick another, so a synthesized tool never replaces one. */
  isTaken?: (name: string) => boolean;
  /** Per request to the endpoint (default 60 s). */
  llmTimeoutMs?: number;
}

export type IntentOutcome = SynthesisOutcome & { rounds: number };

const proposalSchema = z.looseObject({
  name: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  code: z.string(),
});

const SYSTEM_PROMPT = `You write tools for Switchboard. A tool is JavaScript that defines exactly one top-level function:

  async function <name>(args, ctx) { ... return result; }

Rules:
- Nothing else at the top level: put helpers inside the function. No import, require, eval, Function, process, globalThis, this, timers, or changes to built-ins and prototypes.
- args is the JSON input, validated against inputSchema. Return plain JSON data (objects, arrays, strings, numbers, booleans, null): no Dates, Maps, class instances or functions.
- ctx.console.log/warn/error(...) records messages. ctx.fetch(url, { method, headers, body }) and ctx.html(markup, cssSelector, { attr, limit }) exist only if granted (stated below); otherwise compute offline.
- ctx.browser exists only if granted: a headless browser page for pages that render with JavaScript. await ctx.browser.open(url) → {url, status, title, blocked}; waitFor(cssSelector | {text}, {timeoutMs}); click(selector); fill(selector, value); select(selector, ...values); press(key, {selector}); text(selector?) → string; extract(selector, {attrs: [names], limit}) → [{text, attrs}]; screenshot({selector}) → {type: "image", mimeType, data}; content() → HTML. All return promises. Prefer ctx.fetch with ctx.html for a page the inspection calls static.
- Throw an Error with a clear message for bad input.

Reply with one JSON object and nothing else:
{"name": "<identifier>", "description": "<one paragraph: what it does, inputs, output>", "inputSchema": {"type": "object", ...}, "outputSchema": {"type": "object", ...}, "code": "<the JavaScript>"}`;

function firstPrompt(request: IntentRequest): string {
  const lines = [`Write a tool for this intent: ${request.intent ?? request.description ?? ""}`];
  if (request.name) lines.push(`The function must be named ${request.name}.`);
  if (request.description && request.intent) lines.push(`Description: ${request.description}`);
  if (request.inputSchema) lines.push(`Use exactly this inputSchema: ${JSON.stringify(request.inputSchema)}`);
  if (request.outputSchema)
    lines.push(`Use exactly this outputSchema: ${JSON.stringify(request.outputSchema)}`);
  if (request.arguments)
    lines.push(`It will first be called with args = ${JSON.stringify(request.arguments)}`);
  const granted = request.capabilities ?? {};
  if (granted.fetch)
    lines.push(`ctx.fetch is granted for URLs starting with: ${granted.fetch.allow.join(", ")}`);
  else lines.push("ctx.fetch is not granted: the tool must work offline.");
  lines.push(granted.html ? "ctx.html is granted." : "ctx.html is not granted.");
  lines.push(
    granted.browser
      ? `ctx.browser is granted for URLs starting with: ${granted.browser.allow.join(", ")}`
      : "ctx.browser is not granted.",
  );
  for (const page of request.pages ?? [])
    lines.push(
      `Inspection of ${page.url} (use its verdict and candidate selectors): ${JSON.stringify(page.report)}`,
    );
  return lines.join("\n");
}

function feedback(failure: SynthesisFailure): string {
  return [
    `That tool failed at the "${failure.stage}" stage (${failure.kind}). Problems:`,
    JSON.stringify(failure.errors, null, 1),
    "Fix every problem and reply with the whole corrected JSON object again.",
  ].join("\n");
}

/** The JSON object in a reply, which models sometimes wrap in a ```json fence or in prose. */
function proposalFrom(content: string): { proposal: z.infer<typeof proposalSchema> } | SynthesisFailure {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(content)?.[1];
  const candidates = [content, fenced, content.slice(content.indexOf("{"), content.lastIndexOf("}") + 1)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const parsed = proposalSchema.safeParse(JSON.parse(candidate));
      if (parsed.success) return { proposal: parsed.data };
    } catch {}
  }
  return {
    ok: false,
    stage: "definition",
    kind: "invalid",
    errors: [{ message: 'the reply is not one JSON object with at least a "code" string field' }],
  };
}

/** Asks the configured LLM for a tool that serves `request.intent`, feeding failures back for fixes. */
export async function synthesizeFromIntent(request: IntentRequest, deps: IntentDeps): Promise<IntentOutcome> {
  const maxRounds = deps.maxRounds ?? 3;
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: firstPrompt(request) },
  ];
  let last: SynthesisFailure | undefined;
  for (let round = 1; round <= maxRounds; round++) {
    const content = await chatCompletion(deps.llm, messages, {
      timeoutMs: deps.llmTimeoutMs,
      signal: deps.signal,
    });
    messages.push({ role: "assistant", content });
    const reply = proposalFrom(content);
    let outcome: SynthesisOutcome;
    if (!("proposal" in reply)) outcome = reply;
    else {
      const { proposal } = reply;
      const name = request.name ?? proposal.name;
      outcome =
        name !== undefined && request.name === undefined && deps.isTaken?.(name)
          ? {
              ok: false,
              stage: "definition",
              kind: "invalid",
              errors: [{ path: "name", message: `a tool named ${name} already exists; choose another name` }],
            }
          : await synthesize(
              {
                name,
                description: request.description ?? proposal.description ?? request.intent,
                inputSchema: request.inputSchema ?? proposal.inputSchema,
                outputSchema: request.outputSchema ?? proposal.outputSchema,
                code: proposal.code,
                ...(request.capabilities ? { capabilities: request.capabilities } : {}),
                ...(request.arguments ? { testArgs: request.arguments } : {}),
                ...(request.examples ? { examples: request.examples } : {}),
                ...(request.category ? { category: request.category } : {}),
              },
              deps,
            );
    }
    if (outcome.ok) return { ...outcome, rounds: round };
    last = outcome;
    messages.push({ role: "user", content: feedback(outcome) });
  }
  return { ...(last as SynthesisFailure), rounds: maxRounds };
}
