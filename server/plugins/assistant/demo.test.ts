import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, gt } from 'drizzle-orm';
import { assistantMarkOf } from '../../../contract/assistant';
import type { StatsReport } from '../../../contract/stats';
import { channels, companies, messages } from '../../core/db/schema';
import { DEMO } from '../../core/seed';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { chatService } from '../chats';
import { seedDemoBot } from '../bots/testing';
import { assistantServices } from './index';
import { seedDemoKnowledge } from './demo';

describe('the demo assistant', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.seed.demo();
    // The start-up's seeders (beforeListen): the demo bot, then the knowledge with the assistant's settings.
    await seedDemoBot(t.db, DEMO.companies.demo.name);
    const { knowledge, assistant } = assistantServices(t.app);
    await seedDemoKnowledge(t.db, knowledge, assistant, DEMO.companies.demo.name, t.clock.now());
  });
  afterAll(() => t.close());

  it('is on the Demo Company’s sandbox channel: after the demo bot’s greeting, a question gets the answer with its source', async () => {
    const [channel] = await t.db
      .select({ id: channels.id, key: channels.simulatorKey, companyId: channels.companyId })
      .from(channels)
      .innerJoin(companies, eq(companies.id, channels.companyId))
      .where(and(eq(companies.name, DEMO.companies.demo.name), eq(channels.platform, 'sandbox')));
    expect(await assistantServices(t.app).assistant.settings(channel.companyId)).toMatchObject({ provider: 'local', enabled: true, channels: [channel.id] });

    const post = async (text: string) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${channel.key}/conversations/asker/messages/`, payload: { name: 'Asker', client_id: text, text } });
      expect(res.statusCode).toBe(201);
      await chatService(t.app).settled();
      const m = res.json().message as { id: number; room_id: number };
      return t.db.select().from(messages).where(and(eq(messages.roomId, m.room_id), gt(messages.id, m.id))).orderBy(asc(messages.id));
    };
    expect((await post('Hello')).map((r) => r.text)).toEqual(['Hi! I am the Demo Company assistant.', 'How can I help you today?']);
    const [answer, ...rest] = await post('How do I return an item?');
    expect(rest).toEqual([]);
    expect(answer.text).toContain('within 30 days');
    expect(assistantMarkOf(answer.data)?.sources.map((s) => s.title)).toEqual(['Returns and refunds']);
  });

  it('has a week of questions, so /stats shows its answer rate and what the knowledge lacks', async () => {
    const [company] = await t.db.select({ id: companies.id }).from(companies).where(eq(companies.name, DEMO.companies.demo.name));
    const login = await t.login(DEMO.admin.email, t.config.demoPassword);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const now = t.clock.now().getTime();
    const res = await t.app.inject({ method: 'GET', url: `/api/stats/?from=${day(now - 7 * 86_400_000)}&to=${day(now)}&tz=UTC`, headers: t.headers(login.access, company.id) });
    expect(res.statusCode, res.body).toBe(200);
    const { assistant } = res.json() as StatsReport;
    expect(assistant!.questions).toBeGreaterThanOrEqual(10);
    expect(assistant!.unanswered[0]).toMatchObject({ question: 'Do you sell gift cards?', count: 3 });
    expect(assistant!.unanswered.map((q) => q.question)).not.toContain('I want to talk to a person');
  });
});
