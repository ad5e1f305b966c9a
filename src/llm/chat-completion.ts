// One chat completion from an OpenAI-compatible endpoint. The wire format is the plain chat-completions
// one, spoken over fetch: any OpenAI-compatible server (vLLM, llama.cpp, Ollama, hosted APIs) answers it,
// and no SDK is needed for one POST. Used by synthesis (writing a tool) and route-and-execute (filling
// arguments).
import { z } from "zod";

export interface LlmConfig {
  /** e.g. "https://api.openai.com/v1"; "/chat/completions" is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** The endpoint could not be asked (network, HTTP status, malformed reply envelope). */
export class LlmError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = "LlmError";
    this.status = status;
  }
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatOptions {
  signal?: AbortSignal | undefined;
  /** Per request (default 60 s). */
  timeoutMs?: number | undefined;
  /** Body fields beside model and messages, such as a structured-output `response_format`. */
  extra?: Record<string, unknown>;
}

const chatReplySchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/** The reply's text; every failure to get one is an LlmError naming the endpoint's answer. */
export async function chatCompletion(
  llm: LlmConfig,
  messages: ChatMessage[],
  options: ChatOptions = {},
): Promise<string> {
  const url = `${llm.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const signals = [
    AbortSignal.timeout(options.timeoutMs ?? 60_000),
    ...(options.signal ? [options.signal] : []),
  ];
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: llm.model, messages, temperature: 0, ...options.extra }),
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    throw new LlmError(`the LLM endpoint ${url} is unreachable: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok)
    throw new LlmError(
      `the LLM endpoint answered ${response.status}: ${text.slice(0, 300)}`,
      response.status,
    );
  let reply: z.infer<typeof chatReplySchema>;
  try {
    reply = chatReplySchema.parse(JSON.parse(text));
  } catch {
    throw new LlmError(`the LLM endpoint's reply is not a chat completion: ${text.slice(0, 300)}`);
  }
  return (reply.choices[0] as { message: { content: string } }).message.content;
}
