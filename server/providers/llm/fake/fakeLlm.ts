/**
 * The local fake of a chat-completions API (OpenAI's published request and response format), at
 * /dev/llm/v1 in demo mode only (./mount.ts). It composes its answer from the context it is sent:
 * the passage sharing the most words with the customer's question, its first sentences, cited as
 * [n]; "NO_ANSWER" when no passage shares a word. So the whole openai-compatible path, the real
 * adapter included, runs offline and in tests. It checks the request as the real API does
 * (a model, a non-empty list of messages with a role and text content), answering its error shape.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { parseContext, parseQuestion } from '../context';
import type { ChatCompletionResponse, ChatMessage } from '../types';

export const FAKE_LLM_MODEL = 'fake-shop-assistant';
export const NO_ANSWER = 'NO_ANSWER';

function invalid(reply: FastifyReply, message: string, param: string | null): FastifyReply {
  return reply.code(400).send({ error: { message, type: 'invalid_request_error', param, code: null } });
}

/** Words of four letters or more, a plural's s dropped: crude, and enough for a fake. */
function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).map((w) => w.replace(/s$/, '')));
}

/** The fake model's reply to a conversation. */
export function composeAnswer(messages: ChatMessage[]): string {
  const prompt = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  const passages = parseContext(prompt);
  const question = words(parseQuestion(prompt));
  let best: { number: number; text: string; score: number } | null = null;
  for (const passage of passages) {
    const own = words(`${passage.title} ${passage.text}`);
    const score = [...question].filter((w) => own.has(w)).length;
    if (score > 0 && (!best || score > best.score)) best = { number: passage.number, text: passage.text, score };
  }
  if (!best) return NO_ANSWER;
  return `${firstSentences(best.text, 2)} [${best.number}]`;
}

/**
 * The first `count` sentences of a text. A sentence ends at a full stop, question or exclamation mark
 * followed by white space or the end: "5.50 euros" and "e.g." inside a word are no ends.
 */
export function firstSentences(text: string, count: number): string {
  const sentences = text.trim().split(/(?<=[.!?])\s+/);
  return sentences.slice(0, count).join(' ');
}

function isMessage(value: unknown): value is ChatMessage {
  const m = value as ChatMessage;
  return typeof m === 'object' && m !== null && ['system', 'user', 'assistant'].includes(m.role) && typeof m.content === 'string';
}

export async function fakeLlmPlugin(app: FastifyInstance): Promise<void> {
  app.get('/v1/models', async () => ({ object: 'list', data: [{ id: FAKE_LLM_MODEL, object: 'model', created: 0, owned_by: 'local-demo' }] }));

  app.post('/v1/chat/completions', async (request, reply) => {
    const body = request.body as { model?: unknown; messages?: unknown; max_tokens?: unknown } | null;
    if (!body || typeof body !== 'object') return invalid(reply, 'The request body must be a JSON object.', null);
    if (typeof body.model !== 'string' || body.model === '') return invalid(reply, 'you must provide a model parameter', 'model');
    if (!Array.isArray(body.messages) || body.messages.length === 0 || !body.messages.every(isMessage)) {
      return invalid(reply, "'messages' must be a non-empty array of {role, content}", 'messages');
    }
    const content = composeAnswer(body.messages);
    const answer: ChatCompletionResponse = {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: JSON.stringify(body.messages).length >> 2, completion_tokens: content.length >> 2, total_tokens: (JSON.stringify(body.messages).length + content.length) >> 2 },
    };
    return answer;
  });
}
