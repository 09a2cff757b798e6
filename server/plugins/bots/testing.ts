/**
 * Test helpers of the bots plugin, the only way other plugins' tests reach into it: the bot-service
 * set-up (bots and flows: a company with its integration key, calls with that key, an upload), the
 * demo bot and the tables tests seed bots into.
 */
import { expect } from 'vitest';
import type { BotIntegration } from '../../../contract/bots';
import type { PresignedUpload } from '../../../contract/chats';
import type { TestApp } from '../../testing/testApp';
import { teamFixture, type TeamFixture } from '../team/testing';

export const BOT_SERVICE_BASE = '/bot-service';

export interface BotServiceCompany {
  f: TeamFixture;
  /** The company's bot-service access key (GET /api/bots/integration/). */
  key: string;
}

/** A company (teamFixture) and its bot-service access key. */
export async function botServiceCompany(t: TestApp, name: string, domain: string): Promise<BotServiceCompany> {
  const f = await teamFixture(t, name, domain);
  const res = await f.call(f.admin, 'GET', '/api/bots/integration/');
  expect(res.statusCode).toBe(200);
  return { f, key: (res.json() as BotIntegration).access_key! };
}

/** A bot-service call with the key as the access_key query parameter (spec §7); `null`: no key. */
export function botServiceCall(t: TestApp, key: string | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) {
  const sep = path.includes('?') ? '&' : '?';
  const url = `${BOT_SERVICE_BASE}${path}${key === null ? '' : `${sep}access_key=${encodeURIComponent(key)}`}`;
  return t.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

/**
 * What the console's upload (src/plugins/bots/canvas/upload.ts) stores: a presigned chat upload of
 * `bytes` as an image, then its file_url as a `/media/…` path.
 */
export async function uploadChatImage(t: TestApp, f: TeamFixture, fileName: string, bytes: Buffer): Promise<string> {
  const presign = await f.call(f.admin, 'GET', `/api/chats/presigned_url/?file_name=${encodeURIComponent(fileName)}&file_type=image/png`);
  expect(presign.statusCode, presign.body).toBe(200);
  const target = presign.json<PresignedUpload>();
  const uploadUrl = new URL(target.upload_url, 'http://console.test');
  const put = await t.app.inject({ method: 'PUT', url: uploadUrl.pathname + uploadUrl.search, headers: target.headers, payload: bytes });
  expect(put.statusCode, put.body).toBe(200);
  return new URL(target.file_url, 'http://console.test').pathname;
}

/** Bots seeded straight into their tables (the flows' start_flow test, the stats). */
export { botChannels, botConversations, bots, botSteps, stepOptions } from './schema';
export { seedDemoBot } from './demo';
