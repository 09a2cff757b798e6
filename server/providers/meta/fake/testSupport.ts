/**
 * Test helpers around the fake Meta: an adapter pointed at it, and a WhatsApp number or a page
 * set up the way the product sets them up (signup code exchanged, number registered).
 */
import { testConfig, type MetaConfig } from '../../../core/config';
import { HttpMetaGraph, type HttpMetaGraphDeps } from '../graphClient';
import { startFakeMeta, type StartedFakeMeta } from './fakeMeta';
import type { FakeMetaOptions } from './fakeMetaContext';

export const TEST_APP_ID = 'test-app-id';
export const TEST_APP_SECRET = 'test-app-secret-0123456789';

export function metaConfigFor(fake: StartedFakeMeta, overrides: Partial<MetaConfig> = {}): MetaConfig {
  return { ...testConfig().meta, appId: TEST_APP_ID, appSecret: TEST_APP_SECRET, graphUrl: fake.graphUrl, sendRetryDelaysMs: [0, 0], ...overrides };
}

export async function startTestFakeMeta(options: Partial<FakeMetaOptions> = {}): Promise<StartedFakeMeta> {
  return startFakeMeta({ appId: TEST_APP_ID, appSecret: TEST_APP_SECRET, autoStatuses: false, ...options });
}

export function graphFor(fake: StartedFakeMeta, overrides: Partial<MetaConfig> = {}, deps: HttpMetaGraphDeps = {}): HttpMetaGraph {
  return new HttpMetaGraph(metaConfigFor(fake, overrides), { sleep: async () => {}, ...deps });
}

/** A connected WhatsApp number: signup code exchanged for the business token, number registered. */
export async function connectedNumber(fake: StartedFakeMeta, graph: HttpMetaGraph, phoneNumber?: string) {
  const signup = fake.state.createWhatsAppBusiness({ businessName: 'Acme', phoneNumber });
  const { accessToken } = await graph.exchangeCode(signup.code);
  await graph.registerPhone(signup.phoneNumberId, accessToken, '123456');
  return { ...signup, token: accessToken };
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

/** A customer writes first (opens the 24-hour window), through the control API. */
export async function customerWrites(fake: StartedFakeMeta, body: Record<string, unknown>) {
  const { status, json } = await postJson(`${fake.url}/control/inbound`, body);
  if (status !== 200) throw new Error(`control/inbound ${status}: ${JSON.stringify(json)}`);
  return json;
}
