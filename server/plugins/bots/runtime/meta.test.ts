/** The runtime on Meta channels: options as WhatsApp reply buttons or a list, Messenger quick replies; replies by id; replays answered once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages, rooms } from '../../../core/db/schema';
import type { ChannelRow } from '../../chats';
import { channelsTestApp, companyFixture, insertChannel, messengerEvent, postWebhook, waInbound, type ChannelsTestApp } from '../../channels/testing';
import { botChannels, bots, botSteps, stepOptions } from '../schema';

describe('bot runtime on WhatsApp and Messenger', () => {
  let t: ChannelsTestApp;
  let wa: ChannelRow;
  let fb: ChannelRow;
  let seq = 0;
  const wamid = () => `wamid.BOT${++seq}`;

  beforeAll(async () => {
    t = await channelsTestApp('pglite');
    const acme = await companyFixture(t, 'Acme', 'acme.test');
    wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-bot', token: 'wa-token' });
    fb = await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'page-bot', token: 'fb-token' });
    const [bot] = await t.db.insert(bots).values({ companyId: acme.company, name: 'Meta bot', startStepId: 'menu' }).returning({ id: bots.id });
    await t.db.insert(botSteps).values([
      { botId: bot.id, id: 'menu', messages: [{ text: 'Pick one', media_url: null, type: 'text' }], position: 0 },
      { botId: bot.id, id: 'many', messages: [{ text: 'Pick a size', media_url: null, type: 'text' }], position: 1 },
      { botId: bot.id, id: 'done', messages: [{ text: 'Size noted.', media_url: null, type: 'text' }], position: 2 },
    ]);
    await t.db.insert(stepOptions).values([
      { botId: bot.id, id: 'm-sizes', stepId: 'menu', text: 'Sizes', nextStep: 'many', position: 0 },
      { botId: bot.id, id: 'm-b', stepId: 'menu', text: 'B', nextStep: null, position: 1 },
      { botId: bot.id, id: 'm-c', stepId: 'menu', text: 'C', nextStep: null, position: 2 },
      ...['XS', 'S', 'M', 'L', 'XL'].map((size, i) => ({ botId: bot.id, id: `size-${size}`, stepId: 'many', text: size, nextStep: 'done', position: i })),
    ]);
    await t.db.insert(botChannels).values([
      { botId: bot.id, channelId: wa.id, companyId: acme.company },
      { botId: bot.id, channelId: fb.id, companyId: acme.company },
    ]);
  });
  afterAll(() => t.close());

  const sentTo = (to: string) => t.graph.sent.filter((s) => s.to === to).map((s) => s.content);

  it('WhatsApp: three options as reply buttons, five as a list; the reply ids move on; a replayed webhook is answered once', async () => {
    const first = waInbound(wa.externalId, '15550001111', 'Maria', { id: wamid(), type: 'text', text: { body: 'Hello' } });
    expect((await postWebhook(t, first)).statusCode).toBe(200);
    await t.settled();
    expect(sentTo('15550001111')).toEqual([{ kind: 'buttons', body: 'Pick one', buttons: [{ id: 'm-sizes', title: 'Sizes' }, { id: 'm-b', title: 'B' }, { id: 'm-c', title: 'C' }] }]);

    const press = waInbound(wa.externalId, '15550001111', 'Maria', { id: wamid(), type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'm-sizes', title: 'Sizes' } } });
    await postWebhook(t, press);
    await t.settled();
    expect(sentTo('15550001111')[1]).toMatchObject({ kind: 'list', body: 'Pick a size', sections: [{ rows: [{ id: 'size-XS' }, { id: 'size-S' }, { id: 'size-M' }, { id: 'size-L' }, { id: 'size-XL' }] }] });

    // The same delivery again, and the same message in a new delivery: nothing more is sent.
    await postWebhook(t, press);
    await postWebhook(t, JSON.stringify(press, null, 2));
    await t.settled();
    expect(sentTo('15550001111')).toHaveLength(2);

    await postWebhook(t, waInbound(wa.externalId, '15550001111', 'Maria', { id: wamid(), type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'size-M', title: 'M' } } }));
    await t.settled();
    expect(sentTo('15550001111')[2]).toEqual({ kind: 'text', text: 'Size noted.', previewUrl: false });
    const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, wa.id), eq(rooms.externalId, '15550001111')));
    const bot = await t.db.select().from(messages).where(and(eq(messages.roomId, room.id), eq(messages.origin, 'bot')));
    expect(bot.map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('Messenger: options as quick replies; a quick reply’s payload moves on', async () => {
    await postWebhook(t, messengerEvent('page', fb.externalId, 'psid-42', { message: { mid: 'mid.1', text: 'hi' } }));
    await t.settled();
    expect(sentTo('psid-42')).toEqual([
      { kind: 'list', body: 'Pick one', buttonText: 'Options', sections: [{ title: '', rows: [{ id: 'm-sizes', title: 'Sizes' }, { id: 'm-b', title: 'B' }, { id: 'm-c', title: 'C' }] }] },
    ]);
    await postWebhook(t, messengerEvent('page', fb.externalId, 'psid-42', { message: { mid: 'mid.2', text: 'Sizes', quick_reply: { payload: 'm-sizes' } } }));
    await t.settled();
    expect(sentTo('psid-42')[1]).toMatchObject({ kind: 'list', body: 'Pick a size' });
  });
});
