import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import { channels, messages, rooms } from '../../core/db/schema';
import { GraphApiError } from '../../providers/meta/types';
import { describeEachDatabase } from '../../testing/testApp';
import { absoluteUrl, outboundContent } from './providers';
import { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp, type CompanyFixture } from './testFixtures';
import { messengerEvent, postWebhook, waInbound } from './testing';
import { chatService, identityFor, type FakeSocket, type ChannelRow } from '../chats';

function message(overrides: Partial<Message>): Message {
  return {
    id: 1,
    room_id: 1,
    origin: 'agent',
    type: 'text',
    text: null,
    media_url: null,
    media_type: null,
    data: null,
    status: 'pending',
    error: null,
    client_id: 'c',
    sender_name: 'A',
    created_at: new Date().toISOString(),
    private: false,
    ...overrides,
  };
}

describe('outboundContent', () => {
  const base = 'https://console.example.com';
  it('maps text, media by absolute link, and templates', () => {
    expect(outboundContent(message({ text: 'Hello' }), base)).toEqual({ kind: 'text', text: 'Hello', previewUrl: false });
    expect(outboundContent(message({ text: 'See https://x.y' }), base)).toMatchObject({ previewUrl: true });
    expect(outboundContent(message({ type: 'image', media_url: '/media/chats/1/a/cat.png', text: 'A cat' }), base)).toEqual({
      kind: 'media',
      mediaType: 'image',
      link: 'https://console.example.com/media/chats/1/a/cat.png',
      caption: 'A cat',
    });
    expect(outboundContent(message({ type: 'document', media_url: 'https://cdn.example.com/files/Price%20list.pdf' }), base)).toEqual({
      kind: 'media',
      mediaType: 'document',
      link: 'https://cdn.example.com/files/Price%20list.pdf',
      filename: 'Price list.pdf',
    });
    expect(outboundContent(message({ type: 'audio', media_url: '/media/a.ogg', text: 'ignored' }), base)).toEqual({ kind: 'media', mediaType: 'audio', link: `${base}/media/a.ogg` });
    expect(outboundContent(message({ type: 'text', media_url: '/media/v.mp4', media_type: 'video/mp4' }), base)).toMatchObject({ kind: 'media', mediaType: 'video' });
    expect(
      outboundContent(message({ type: 'template', text: 'Hi Ann', data: { template: { name: 'hello', language: 'en_US', parameters: ['Ann'] } } }), base),
    ).toEqual({ kind: 'template', name: 'hello', language: 'en_US', bodyParameters: ['Ann'] });
    expect(() => outboundContent(message({ type: 'template', text: 'x' }), base)).toThrow(/no template/);
    expect(() => outboundContent(message({ text: '  ' }), base)).toThrow();
    expect(absoluteUrl('media/x.png', 'http://h/')).toBe('http://h/media/x.png');
  });
});

describeEachDatabase('outbound messages on Meta channels', (database) => {
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let wa: ChannelRow;
  let fb: ChannelRow;
  let ig: ChannelRow;
  let seq = 0;

  beforeAll(async () => {
    t = await channelsTestApp(database);
    acme = await companyFixture(t, 'Acme', 'acme.test');
    wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-200', token: 'wa-token' });
    fb = await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'page-200', token: 'fb-token' });
    ig = await insertChannel(t, acme.company, { platform: 'instagram', externalId: 'ig-200', token: 'ig-token', settings: { page_id: 'page-201' } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    const chats = chatService(t.app);
    chats.deliveryBackoff = { firstMs: 20, maxMs: 80 };
  });

  const agent = () => identityFor({ userId: acme.agent.id, email: acme.agent.email, companyId: acme.company, role: 'agent' });

  async function customerWrites(customer: string, text = 'hi'): Promise<number> {
    await postWebhook(t, waInbound(wa.externalId, customer, 'Customer', { id: `wamid.C${++seq}`, type: 'text', text: { body: text } }));
    await t.settled();
    const [room] = await t.db.select().from(rooms).where(eq(rooms.externalId, customer));
    return room.id;
  }

  async function open(roomId: number): Promise<FakeSocket> {
    const { reply, ctx } = await t.hub.join(agent(), `room:${roomId}`);
    expect(reply.status).toBe('ok');
    return ctx;
  }

  const send = (ctx: FakeSocket, msg: Record<string, unknown>) => t.hub.push(ctx, 'send_message', { message: { client_id: `c${++seq}`, ...msg } });
  const row = async (id: number) => (await t.db.select().from(messages).where(eq(messages.id, id)))[0];

  it('a reply within the window goes to the customer through the Cloud API with the channel token', async () => {
    const ctx = await open(await customerWrites('15550000001'));
    const reply = await send(ctx, { text: 'How can I help?' });
    expect(reply.status).toBe('ok');
    await t.settled();
    expect(t.graph.sent.at(-1)).toMatchObject({ via: 'whatsapp', from: 'pn-200', token: 'wa-token', to: '15550000001', content: { kind: 'text', text: 'How can I help?' } });
    expect(await row(reply.response.message.id)).toMatchObject({ status: 'sent', externalId: t.graph.sent.at(-1)!.messageId });

    await send(ctx, { type: 'image', media_url: '/media/chats/1/x/pic.png', text: 'Look' });
    await t.settled();
    expect(t.graph.sent.at(-1)!.content).toEqual({ kind: 'media', mediaType: 'image', link: `${t.config.publicUrl}/media/chats/1/x/pic.png`, caption: 'Look' });
  });

  it('outside the 24-hour window a free-form message is refused; a template is sent and stored with its data', async () => {
    const roomId = await customerWrites('15550000002');
    t.clock.advance(24 * 3600_000 + 1000);
    const ctx = await open(roomId);
    const refused = await send(ctx, { text: 'Are you still there?' });
    expect(refused).toEqual({
      status: 'error',
      response: { reason: 'window closed', errors: { message: ['The 24-hour customer service window is closed: send an approved template instead.'] } },
    });
    expect(await t.db.select().from(messages).where(eq(messages.roomId, roomId))).toHaveLength(1);

    expect((await send(ctx, { type: 'template', text: 'x' })).response).toMatchObject({ reason: 'invalid payload', errors: { template: expect.any(Array) } });
    const template = { name: 'follow_up', language: 'en_US', parameters: ['Ann'] };
    const sent = await send(ctx, { type: 'template', text: 'Hi Ann, any news?', template });
    expect(sent.status).toBe('ok');
    expect(sent.response.message).toMatchObject({ type: 'template', text: 'Hi Ann, any news?', data: { template }, status: 'pending' });
    await t.settled();
    expect(t.graph.sent.at(-1)!.content).toEqual({ kind: 'template', name: 'follow_up', language: 'en_US', bodyParameters: ['Ann'] });

    // The customer writes again: the window reopens.
    await customerWrites('15550000002', 'news!');
    expect((await send(ctx, { text: 'Great' })).status).toBe('ok');
  });

  it('a customer who never wrote cannot be started with free text (create_new_chat_room)', async () => {
    const { ctx } = await t.hub.join(agent(), `page:${wa.id}`);
    const res = await t.hub.push(ctx, 'create_new_chat_room', { user_id: '15550000099', page_id: wa.id, platform: 'whatsapp', name: 'New', messages: [{ text: 'Hi', client_id: 'n1' }] });
    expect(res).toMatchObject({ status: 'error', response: { reason: 'window closed' } });
  });

  it('Messenger and Instagram replies go through the page (Instagram: its linked page)', async () => {
    await postWebhook(t, messengerEvent('page', fb.externalId, '9000001', { message: { mid: 'm_out_1', text: 'hey' } }));
    await postWebhook(t, messengerEvent('instagram', ig.externalId, '9100001', { message: { mid: 'ig_out_1', text: 'hey' } }));
    await t.settled();
    const [fbRoom] = await t.db.select().from(rooms).where(eq(rooms.externalId, '9000001'));
    const [igRoom] = await t.db.select().from(rooms).where(eq(rooms.externalId, '9100001'));
    await send(await open(fbRoom.id), { text: 'FB reply' });
    await t.settled();
    expect(t.graph.sent.at(-1)).toMatchObject({ via: 'messenger', from: 'page-200', token: 'fb-token', to: '9000001' });
    await send(await open(igRoom.id), { text: 'IG reply' });
    await t.settled();
    expect(t.graph.sent.at(-1)).toMatchObject({ via: 'messenger', from: 'page-201', token: 'ig-token', to: '9100001' });
    // No templates on Messenger.
    const refused = await send(await open(fbRoom.id), { type: 'template', text: 'x', template: { name: 'a', language: 'en' } });
    expect(refused.response).toMatchObject({ reason: 'invalid payload' });
  });

  it('a retryable refusal keeps the message pending and tries again until it is sent; a final refusal fails it', async () => {
    const ctx = await open(await customerWrites('15550000003'));
    t.graph.failNext('sendWhatsApp', new GraphApiError('Rate limited', 429, 130429, null, true), 2);
    const reply = await send(ctx, { text: 'Eventually' });
    await t.settled();
    expect(await row(reply.response.message.id)).toMatchObject({ status: 'pending', error: null });
    await eventually(async () => expect((await row(reply.response.message.id)).status).toBe('sent'));
    expect(t.graph.callsOf('sendWhatsApp').filter((c) => (c.args[3] as { text?: string }).text === 'Eventually')).toHaveLength(3);

    t.graph.failNext('sendWhatsApp', new GraphApiError('Invalid parameter', 400, 131009));
    const failed = await send(ctx, { text: 'Nope' });
    await t.settled();
    expect(await row(failed.response.message.id)).toMatchObject({ status: 'failed', error: 'Invalid parameter' });
  });

  it('a disconnected channel fails the message', async () => {
    const roomId = await customerWrites('15550000004');
    const ctx = await open(roomId);
    await t.db.update(channels).set({ status: 'disconnected', accessTokenEnc: null }).where(eq(channels.id, wa.id));
    try {
      const reply = await send(ctx, { text: 'Lost' });
      await t.settled();
      expect(await row(reply.response.message.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('disconnected') });
    } finally {
      await t.db.update(channels).set({ status: 'active', accessTokenEnc: wa.accessTokenEnc }).where(eq(channels.id, wa.id));
    }
  });

  it('messages still pending at a restart are delivered by the next start', async () => {
    const ctx = await open(await customerWrites('15550000005'));
    // Meta keeps answering "rate limited" until the process stops.
    t.graph.failNext('sendWhatsApp', new GraphApiError('Rate limited', 429, 130429, null, true), 1);
    chatService(t.app).deliveryBackoff = { firstMs: 60_000, maxMs: 60_000 };
    const reply = await send(ctx, { text: 'Across restarts' });
    await t.settled();
    expect(chatService(t.app).retriesScheduled()).toBe(1);
    expect((await row(reply.response.message.id)).status).toBe('pending');
    t.clock.advance(30_000);
    await t.restart();
    await t.settled();
    expect(await row(reply.response.message.id)).toMatchObject({ status: 'sent' });
  });
});
