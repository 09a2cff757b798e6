/**
 * Mounts the fake chat-completions API at /dev/llm (base URL for the assistant's settings:
 * `<server>/dev/llm/v1`) in demo mode only, like the fake Meta: outside it the path does not exist
 * (server/core/demoRoutes.test.ts checks every path registered here answers 404 there).
 */
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../../core/config';
import { fakeLlmPlugin } from './fakeLlm';

export const FAKE_LLM_PREFIX = '/dev/llm';

export async function registerFakeLlm(app: FastifyInstance, config: AppConfig): Promise<void> {
  if (!config.demo.enabled) return;
  await app.register(fakeLlmPlugin, { prefix: FAKE_LLM_PREFIX });
}
