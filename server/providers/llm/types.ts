/**
 * A chat-completions model (issue #24): the shape the assistant talks to, after OpenAI's published
 * API (POST {base}/chat/completions), which OpenAI, Azure OpenAI, Ollama, vLLM and llama.cpp's
 * server all speak.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  max_tokens?: number;
}

/** The parts of a chat.completion answer we read. */
export interface ChatCompletionResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: { index: number; message: ChatMessage; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Why a call did not give an answer: the assistant hands over on any of them. */
export type LlmFailure = 'timeout' | 'unreachable' | 'refused' | 'malformed';

export class LlmError extends Error {
  constructor(
    readonly failure: LlmFailure,
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface ChatModel {
  /** The assistant's reply text; throws LlmError when there is none. */
  complete(request: ChatCompletionRequest, options: { timeoutMs: number }): Promise<string>;
}
