import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, gt, ne } from 'drizzle-orm';
import { channels, companies, messages, rooms } from '../../core/db/schema';
import { DEMO } from '../../core/seed';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { chatService } from '../chats';
import { botsServices } from '.';
import { DEMO_BOT_NAME, DEMO_BOT_STEPS, seedDemoBot } from './demo';
import { botChannels, botConversations, bots } from './schema';

describe('the demo bot', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.seed.demo();
  });
  afterAll(() => t.close());

  it('is seeded once on the Demo Company’s sandbox channel, and a customer writing in the simulator meets it at once', async () => {
    const botId = await seedDemoBot(t.db, DEMO.companies.demo.name);
    expect(botId).not.toBeNull();
    expect(await seedDemoBot(t.db, DEMO.companies.demo.name)).toBeNull();
    expect(await seedDemoBot(t.db, 'No such company')).toBeNull();
    const [channel] = await t.db
      .select({ id: channels.id, key: channels.simulatorKey })
      .from(channels)
      .innerJoin(companies, eq(companies.id, channels.companyId))
      .where(and(eq(companies.name, DEMO.companies.demo.name), eq(channels.platform, 'sandbox')));
    key = channel.key!;
    expect(await t.db.select({ name: bots.name }).from(botChannels).innerJoin(bots, eq(bots.id, botChannels.botId)).where(eq(botChannels.channelId, channel.id))).toEqual([{ name: DEMO_BOT_NAME }]);

    const post = async (payload: Record<string, unknown>, clientId: string) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${key}/conversations/newcomer/messages/`, payload: { name: 'Newcomer', client_id: clientId, ...payload } });
      expect(res.statusCode).toBe(201);
      await chatService(t.app).settled();
      const m = res.json().message as { id: number; room_id: number };
      const rows = await t.db.select().from(messages).where(and(eq(messages.roomId, m.room_id), gt(messages.id, m.id))).orderBy(asc(messages.id));
      return rows.map((r) => ({ origin: r.origin, text: r.text, buttons: (r.data?.buttons as { title: string }[] | undefined)?.map((b) => b.title) }));
    };
    expect(await post({ text: 'Hello' }, 'n1')).toEqual([
      { origin: 'bot', text: 'Hi! I am the Demo Company assistant.', buttons: undefined },
      { origin: 'bot', text: 'How can I help you today?', buttons: ['Track my order', 'Opening hours', 'Talk to a person'] },
    ]);
    expect(await post({ button_reply: { id: 'welcome-track', title: 'Track my order' } }, 'n2')).toEqual([{ origin: 'bot', text: 'Please type your order number (for example 4821).', buttons: undefined }]);
    expect((await post({ text: '4821' }, 'n3')).map((m) => m.text)).toEqual(['Thanks! Order 4821 left our warehouse and should reach you within 3 days.', 'Anything else?']);
    expect((await post({ text: 'talk to a person' }, 'n4')).map((m) => m.text)).toEqual(['Sure! Someone from our team will answer you here shortly.']);
    const [room] = await t.db.select().from(rooms).where(eq(rooms.externalId, 'newcomer'));
    expect(room.pausedUntil!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(await post({ text: 'Hello?' }, 'n5')).toEqual([]);
  });

  it('has handled the demo inbox’s conversations it answered, in its own words, as its runtime would have left them', async () => {
    const [bot] = await t.db.select().from(bots).where(eq(bots.name, DEMO_BOT_NAME));
    const said = await t.db
      .select({ roomId: messages.roomId, room: rooms.name, text: messages.text, sender: messages.senderName })
      .from(messages)
      .innerJoin(rooms, eq(rooms.id, messages.roomId))
      .where(and(eq(rooms.companyId, bot.companyId), eq(messages.origin, 'bot'), ne(rooms.externalId, 'newcomer')));
    const words = DEMO_BOT_STEPS.flatMap((step) => step.texts);
    expect(said.length).toBeGreaterThan(0);
    for (const line of said) {
      expect(words, line.room ?? '').toContain(line.text);
      expect(line.sender).toBe(DEMO_BOT_NAME);
    }
    const conversations = await t.db
      .select({ room: rooms.name, step: botConversations.currentStepId, handedOverAt: botConversations.handedOverAt, lastInbound: botConversations.lastInboundMessageId })
      .from(botConversations)
      .innerJoin(rooms, eq(rooms.id, botConversations.roomId))
      .where(and(eq(botConversations.botId, bot.id), ne(rooms.externalId, 'newcomer')))
      .orderBy(asc(rooms.name));
    expect(conversations.map((c) => c.room)).toEqual([...new Set(said.map((line) => line.room))].sort());
    expect(conversations.map((c) => [c.room, c.step, c.handedOverAt !== null])).toEqual([
      ['Aiko Tanaka', null, true],
      ['Giulia Bianchi', null, true],
      ['James Carter', null, true],
      ['Lucas Martin', 'welcome', false],
      ['Maria Lopez', null, true],
      ['Noah Fischer', null, true],
    ]);
    for (const c of conversations) expect(c.lastInbound).toBeGreaterThan(0);
    // What its page shows: the six, and the newcomer of the test above.
    expect((await botsServices(t.app).bots.get(bot.companyId, bot.id)).conversations_handled).toBe(7);
  });

  it('is published version 1: its draft has nothing unpublished and nothing missing (issue #25)', async () => {
    const [bot] = await t.db.select().from(bots).where(eq(bots.name, DEMO_BOT_NAME));
    expect(await botsServices(t.app).drafts.get(bot.companyId, bot.id)).toMatchObject({ published_version: 1, unpublished_changes: false, problems: [] });
  });
});
