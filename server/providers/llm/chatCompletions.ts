/**
 * The real adapter: a chat-completions client over fetch. `baseUrl` is the API root the provider
 * documents (https://api.openai.com/v1, http://localhost:11434/v1 for Ollama, …); the key, when
 * given, goes in `Authorization: Bearer`. Every failure (time limit, network, non-2xx, an answer
 * without a message) is an LlmError, never a crash: the caller hands over. The key never appears in
 * an error's message.
 */
import { LlmError, type ChatCompletionRequest, type ChatModel } from './types';

export interface ChatCompletionsOptions {
  baseUrl: string;
  apiKey: string | null;
  /** Tests may pass their own; default: the global fetch. */
  fetch?: typeof fetch;
}

/** At most this much of an answer is read (a misbehaving endpoint cannot make us buffer gigabytes). */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

export function createChatCompletionsModel(options: ChatCompletionsOptions): ChatModel {
  const doFetch = options.fetch ?? fetch;
  return {
    async complete(request: ChatCompletionRequest, { timeoutMs }): Promise<string> {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const signal = AbortSignal.timeout(timeoutMs);
      let text: string;
      let status: number;
      try {
        const response = await doFetch(chatCompletionsUrl(options.baseUrl), { method: 'POST', headers, body: JSON.stringify(request), signal, redirect: 'error' });
        status = response.status;
        const length = Number(response.headers.get('content-length') ?? 0);
        if (length > MAX_RESPONSE_BYTES) throw new LlmError('malformed', 'The model answered too much.');
        text = await response.text();
      } catch (err) {
        if (err instanceof LlmError) throw err;
        if (signal.aborted) throw new LlmError('timeout', `The model did not answer within ${timeoutMs} ms.`);
        throw new LlmError('unreachable', 'The model could not be reached.');
      }
      if (status < 200 || status >= 300) throw new LlmError('refused', `The model answered HTTP ${status}.`);
      if (text.length > MAX_RESPONSE_BYTES) throw new LlmError('malformed', 'The model answered too much.');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new LlmError('malformed', 'The model did not answer JSON.');
      }
      const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new LlmError('malformed', 'The model answered without a message.');
      return content;
    },
  };
}
