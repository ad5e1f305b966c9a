// The LLM client: one chat completion from an OpenAI-compatible endpoint (LlmConfig), failing with an
// LlmError that names what the endpoint answered.
export {
  type ChatMessage,
  type ChatOptions,
  chatCompletion,
  type LlmConfig,
  LlmError,
} from "./chat-completion.ts";
