/** Shared set-up of the channels tests: an app with the in-memory MetaGraph, memory media, a recording hub, and a signed-in company. */
import type { LightMyRequestResponse } from 'fastify';
import type { RoleId } from '../../../contract/permissions';
import { channels } from '../../core/db/schema';
import { MemoryMediaStorage } from '../../providers/storage/memory';
import { createTestApp, type DatabaseKind, type TestApp, type TestAppOptions } from '../../testing/testApp';
import { channelsRuntime } from './index';
import { InMemoryGraph } from './testing';
import { registerChatChannels, chatService, useHubForTests, FakeHub, type ChannelRow } from '../chats';

export interface Person {
  id: number;
  email: string;
  access: string;
}

export interface ChannelsTestApp extends TestApp {
  graph: InMemoryGraph;
  hub: FakeHub;
  media: MemoryMediaStorage;
  /** Waits for the background work of the current app (signups, webhooks, deliveries). */
  settled(): Promise<void>;
}

export async function channelsTestApp(database: DatabaseKind, options: TestAppOptions = {}): Promise<ChannelsTestApp> {
  const graph = new InMemoryGraph();
  const hub = new FakeHub();
  const media = new MemoryMediaStorage();
  const t = await createTestApp({
    database,
    ...options,
    overrides: { MetaGraph: graph, MediaStorage: media, ...options.overrides },
    onBuild: async (app) => {
      useHubForTests(app, hub);
      hub.handlers.clear();
      registerChatChannels(hub, chatService(app));
      await options.onBuild?.(app);
    },
  });
  return Object.assign(t, {
    graph,
    hub,
    media,
    settled: () => channelsRuntime(t.app).settled(),
  }) as ChannelsTestApp;
}

export interface CompanyFixture {
  company: number;
  admin: Person;
  manager: Person;
  agent: Person;
  add(role: RoleId, email: string): Promise<Person>;
  call(who: Person, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, companyId?: number): Promise<LightMyRequestResponse>;
}

export async function companyFixture(t: TestApp, name: string, domain: string): Promise<CompanyFixture> {
  const company = await t.seed.company(name);
  async function add(role: RoleId, email: string): Promise<Person> {
    const id = await t.seed.user({ email, firstName: role });
    await t.seed.member(company, id, role);
    return { id, email, access: (await t.login(email)).access };
  }
  const admin = await add('admin', `admin@${domain}`);
  const manager = await add('manager', `manager@${domain}`);
  const agent = await add('agent', `agent@${domain}`);
  return {
    company,
    admin,
    manager,
    agent,
    add,
    call(who, method, url, payload, companyId = company) {
      return t.app.inject({ method, url, headers: t.headers(who.access, companyId), ...(payload !== undefined ? { payload: payload as object } : {}) });
    },
  };
}

/** An active channel inserted directly (token sealed like the plugin does). */
export async function insertChannel(
  t: TestApp,
  companyId: number,
  input: { platform: 'whatsapp' | 'messenger' | 'instagram'; externalId: string; token?: string; name?: string; wabaId?: string; settings?: Record<string, unknown> },
): Promise<ChannelRow> {
  const box = channelsRuntime(t.app).box;
  const [row] = await t.db
    .insert(channels)
    .values({
      companyId,
      platform: input.platform,
      externalId: input.externalId,
      name: input.name ?? `${input.platform} ${input.externalId}`,
      status: 'active',
      accessTokenEnc: box.seal(input.token ?? `token-${input.externalId}`),
      wabaId: input.platform === 'whatsapp' ? (input.wabaId ?? `waba-${input.externalId}`) : null,
      signupStatus: input.platform === 'whatsapp' ? 'completed' : null,
      settings: input.settings ?? (input.platform === 'messenger' ? { page_id: input.externalId } : {}),
    })
    .returning();
  return row;
}

/** Polls until `check` passes (background work driven by timers). */
// 15 s: a bound against a hang, not a speed; on a loaded 2-core CI machine a webhook's round trip through
// PostgreSQL took past 5 s once (a templates test failed there and passed alone).
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
