import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import { channels, messages, rooms, webhookEvents } from '../../core/db/schema';
import { describeEachDatabase } from '../../testing/testApp';
import { channelsRuntime } from './index';
import { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp, type CompanyFixture } from './testFixtures';
import { messengerEvent, postWebhook, waInbound, waStatuses } from './testing';
import { chatService, identityFor, type ChannelRow } from '../chats';

describeEachDatabase('Meta webhooks (/api/webhooks/meta/)', (database) => {
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let wa: ChannelRow;
  let fb: ChannelRow;
  let ig: ChannelRow;
  let seq = 0;
  const wamid = () => `wamid.IN${++seq}`;

  beforeAll(async () => {
    t = await channelsTestApp(database);
    acme = await companyFixture(t, 'Acme', 'acme.test');
    wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-100', token: 'wa-token' });
    fb = await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'page-100', token: 'fb-token' });
    ig = await insertChannel(t, acme.company, { platform: 'instagram', externalId: 'ig-100', token: 'ig-token', settings: { page_id: 'page-101' } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.hub.clear());

  const events = () => t.db.select().from(webhookEvents).orderBy(webhookEvents.id);
  const roomMessages = async (channelId: number, customer: string) => {
    const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, customer)));
    if (!room) return [];
    return t.db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(messages.id);
  };

  describe('handshake and signature', () => {
    it('GET answers hub.challenge as text when the verify token matches, else 403', async () => {
      const q = (token: string, mode = 'subscribe') => `/api/webhooks/meta/?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
      const ok = await t.app.inject({ method: 'GET', url: q(t.config.meta.verifyToken) });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toMatch(/^text\/plain/);
      expect(ok.body).toBe('1158201444');
      expect((await t.app.inject({ method: 'GET', url: q('wrong') })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: q(t.config.meta.verifyToken, 'unsubscribe') })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/webhooks/meta/' })).statusCode).toBe(403);
    });

    it('POST without a valid X-Hub-Signature-256 is 401 and nothing is stored', async () => {
      const before = (await events()).length;
      const payload = waInbound(wa.externalId, '15550009999', 'Mallory', { id: wamid(), type: 'text', text: { body: 'forged' } });
      for (const signature of [null, 'sha256=' + '0'.repeat(64), 'sha1=abc', 'garbage']) {
        const res = await postWebhook(t, payload, signature);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ detail: 'Invalid signature.', code: 'invalid_signature' });
      }
      // Signed over other bytes (a re-serialised body does not pass).
      const body = JSON.stringify(payload);
      const { signMetaPayload } = await import('../../providers/meta/webhooks');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/meta/',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaPayload(body, t.config.meta.appSecret) },
        payload: body + ' ',
      });
      expect(res.statusCode).toBe(401);
      expect((await events()).length).toBe(before);
      expect(await roomMessages(wa.id, '15550009999')).toEqual([]);
    });

    it('a correctly signed delivery replayed is answered 200 and stored no second time', async () => {
      const payload = waInbound(wa.externalId, '15550008888', 'Replayed', { id: wamid(), type: 'text', text: { body: 'once' } });
      const before = (await events()).length;
      const first = await postWebhook(t, payload);
      expect(first.statusCode).toBe(200);
      const stored = await events();
      expect(stored).toHaveLength(before + 1);
      expect(stored.at(-1)!.bodyHash).toMatch(/^[0-9a-f]{64}$/);
      // Replayed before and after processing: 200 (Meta retries anything else), nothing new stored.
      for (let i = 0; i < 2; i++) {
        const replay = await postWebhook(t, payload);
        expect(replay.statusCode).toBe(200);
        expect(replay.json()).toEqual({ received: true });
        await t.settled();
      }
      expect(await events()).toHaveLength(before + 1);
      expect(await roomMessages(wa.id, '15550008888')).toHaveLength(1);
      // The same event serialised otherwise is other bytes (and would need its own signature): stored, processed idempotently.
      const respaced = await postWebhook(t, JSON.stringify(payload, null, 1));
      expect(respaced.statusCode).toBe(200);
      await t.settled();
      expect(await events()).toHaveLength(before + 2);
      expect(await roomMessages(wa.id, '15550008888')).toHaveLength(1);
    });

    it('other routes still parse JSON normally', async () => {
      const res = await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', { access_token: 'nope' });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('inbound messages', () => {
    it('a WhatsApp text creates the room (new_room), is stored with the customer name, idempotent on replay', async () => {
      const id = wamid();
      const payload = waInbound(wa.externalId, '15551230001', 'Maria Lopez', { id, type: 'text', text: { body: 'Hola!' } });
      const res = await postWebhook(t, payload);
      expect(res.statusCode).toBe(200);
      await t.settled();
      const [message] = await roomMessages(wa.id, '15551230001');
      expect(message).toMatchObject({ origin: 'user', type: 'text', text: 'Hola!', clientId: `meta:${id}`, externalId: id, senderName: 'Maria Lopez' });
      const [newRoom] = t.hub.since(0, { topic: `page:${wa.id}`, event: 'new_room' });
      expect(newRoom.payload.room).toMatchObject({ name: 'Maria Lopez', external_id: '15551230001', platform: 'whatsapp', unread: 1, last_inbound_at: expect.any(String) });
      expect(t.hub.since(0, { topic: `room:${message.roomId}`, event: 'new_message' })).toHaveLength(1);
      const stored = (await events()).at(-1)!;
      expect(stored).toMatchObject({ provider: 'meta', processedAt: expect.any(Date), attempts: 1, error: null });

      // Meta redelivers the same webhook: nothing changes.
      t.hub.clear();
      await postWebhook(t, payload);
      await t.settled();
      expect(await roomMessages(wa.id, '15551230001')).toHaveLength(1);
      expect(t.hub.broadcasts).toEqual([]);

      // A second message goes to the same room with new_message on the page.
      await postWebhook(t, waInbound(wa.externalId, '15551230001', 'Maria Lopez', { id: wamid(), type: 'text', text: { body: 'Again' } }));
      await t.settled();
      expect(t.hub.since(0, { topic: `page:${wa.id}`, event: 'new_message' })[0].payload.message).toMatchObject({ text: 'Again' });
    });

    it('WhatsApp media is downloaded with the channel token and stored under the private chats/{company}/inbound/', async () => {
      t.graph.media.set('media-1', { bytes: Buffer.from('fake-jpeg'), mimeType: 'image/jpeg' });
      t.graph.media.set('media-2', { bytes: Buffer.from('OggS'), mimeType: 'audio/ogg; codecs=opus' });
      await postWebhook(t, waInbound(wa.externalId, '15551230002', 'Pic Sender', { id: wamid(), type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'My cat' } }));
      await postWebhook(t, waInbound(wa.externalId, '15551230002', 'Pic Sender', { id: wamid(), type: 'audio', audio: { id: 'media-2', mime_type: 'audio/ogg; codecs=opus' } }));
      await t.settled();
      const [image, audio] = await roomMessages(wa.id, '15551230002');
      expect(image).toMatchObject({ type: 'image', text: 'My cat', mediaType: 'image/jpeg', mediaUrl: expect.stringMatching(new RegExp(`^/media/chats/${acme.company}/inbound/[0-9a-f-]{36}\\.jpg$`)) });
      expect(audio).toMatchObject({ type: 'audio', mediaType: 'audio/ogg', mediaUrl: expect.stringMatching(/\.ogg$/) });
      const key = image.mediaUrl!.replace('/media/', '');
      expect((await t.media.get(key))!.bytes.toString()).toBe('fake-jpeg');
      expect(t.graph.callsOf('downloadMedia')[0].args).toEqual(['media-1', 'wa-token']);
    });

    it('an unsupported or vanished attachment keeps the message with a note', async () => {
      t.graph.media.set('media-3', { bytes: Buffer.from('<svg/>'), mimeType: 'image/svg+xml' });
      await postWebhook(t, waInbound(wa.externalId, '15551230003', 'Odd', { id: wamid(), type: 'document', document: { id: 'media-3', mime_type: 'image/svg+xml', filename: 'x.svg' } }));
      await postWebhook(t, waInbound(wa.externalId, '15551230003', 'Odd', { id: wamid(), type: 'video', video: { id: 'media-gone', mime_type: 'video/mp4' } }));
      await t.settled();
      const [doc, video] = await roomMessages(wa.id, '15551230003');
      expect(doc).toMatchObject({ type: 'text', mediaUrl: null, text: 'A document was received but could not be shown (unsupported type image/svg+xml).' });
      expect(doc.data).toMatchObject({ attachment: { type: 'document', media_id: 'media-3' } });
      expect(video).toMatchObject({ type: 'text', text: 'A video was received but could not be shown (it could not be downloaded).' });
    });

    it('button and list replies, locations and contacts are mapped', async () => {
      const c = '15551230004';
      await postWebhook(t, waInbound(wa.externalId, c, 'Bea', { id: wamid(), type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } } }));
      await postWebhook(t, waInbound(wa.externalId, c, 'Bea', { id: wamid(), type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'opt-2', title: 'Option 2', description: 'The second' } } }));
      await postWebhook(t, waInbound(wa.externalId, c, 'Bea', { id: wamid(), type: 'location', location: { latitude: 48.85, longitude: 2.35, name: 'Paris', address: 'Rivoli' } }));
      await postWebhook(t, waInbound(wa.externalId, c, 'Bea', { id: wamid(), type: 'contacts', contacts: [{ name: { formatted_name: 'John Doe' }, phones: [{ phone: '+1 555' }] }] }));
      await t.settled();
      const [button, list, location, contacts] = await roomMessages(wa.id, c);
      expect(button).toMatchObject({ type: 'button_reply', text: 'Yes please', data: { id: 'yes', title: 'Yes please' } });
      expect(list).toMatchObject({ type: 'list_reply', text: 'Option 2', data: { id: 'opt-2', title: 'Option 2' } });
      expect(location).toMatchObject({ type: 'location', data: { latitude: 48.85, longitude: 2.35, name: 'Paris', address: 'Rivoli' } });
      expect(contacts).toMatchObject({ type: 'contacts', text: 'John Doe', data: { contacts: [{ name: { formatted_name: 'John Doe' } }] } });
    });

    it('Messenger and Instagram messages reach their channel; unknown channels and blocked customers are dropped', async () => {
      await postWebhook(t, messengerEvent('page', fb.externalId, '700001', { message: { mid: 'm_1', text: 'Hi page' } }));
      await postWebhook(t, messengerEvent('instagram', ig.externalId, '800001', { message: { mid: 'ig_1', text: 'Hi insta' } }));
      await postWebhook(t, messengerEvent('page', 'page-unknown', '700002', { message: { mid: 'm_2', text: 'Lost' } }));
      const off = await insertChannel(t, acme.company, { platform: 'messenger', externalId: 'page-off' });
      await t.db.update(channels).set({ status: 'disconnected' }).where(eq(channels.id, off.id));
      await postWebhook(t, messengerEvent('page', 'page-off', '700003', { message: { mid: 'm_off', text: 'Gone' } }));
      await t.settled();
      expect(await roomMessages(off.id, '700003')).toEqual([]);
      expect((await roomMessages(fb.id, '700001'))[0]).toMatchObject({ text: 'Hi page', externalId: 'm_1' });
      expect((await roomMessages(ig.id, '800001'))[0]).toMatchObject({ text: 'Hi insta' });
      expect((await events()).at(-1)).toMatchObject({ processedAt: expect.any(Date), error: null });

      const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, fb.id), eq(rooms.externalId, '700001')));
      await t.db.update(rooms).set({ blockedAt: new Date() }).where(eq(rooms.id, room.id));
      await postWebhook(t, messengerEvent('page', fb.externalId, '700001', { message: { mid: 'm_3', text: 'Blocked' } }));
      await t.settled();
      expect(await roomMessages(fb.id, '700001')).toHaveLength(1);
      expect((await events()).at(-1)).toMatchObject({ processedAt: expect.any(Date) });
    });
  });

  describe('customer names (issue #23)', () => {
    it("a new Messenger or Instagram conversation is named after the customer's profile (User Profile API, page token); the id when Meta withholds it", async () => {
      t.graph.profiles.set('700101', 'Lena Fischer');
      t.graph.profiles.set('800101', 'Kai Moreau');
      await postWebhook(t, messengerEvent('page', fb.externalId, '700101', { message: { mid: 'm_name_1', text: 'Hello' } }));
      await postWebhook(t, messengerEvent('instagram', ig.externalId, '800101', { message: { mid: 'ig_name_1', text: 'Hello' } }));
      await postWebhook(t, messengerEvent('page', fb.externalId, '700102', { message: { mid: 'm_name_2', text: 'Hello' } }));
      await t.settled();
      const nameOf = async (channelId: number, customer: string) =>
        (await t.db.select({ name: rooms.name }).from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, customer))))[0]?.name;
      expect(await nameOf(fb.id, '700101')).toBe('Lena Fischer');
      expect(await nameOf(ig.id, '800101')).toBe('Kai Moreau');
      expect(await nameOf(fb.id, '700102')).toBe('700102');
      const profileCalls = () => t.graph.calls.filter((c) => c.method === 'userProfile' && ['700101', '800101', '700102'].includes(c.args[0] as string));
      expect(profileCalls().map((c) => c.args)).toEqual([
        ['700101', 'fb-token', 'messenger'],
        ['800101', 'ig-token', 'instagram'],
        ['700102', 'fb-token', 'messenger'],
      ]);
      // Later messages of a named conversation ask Meta nothing more.
      await postWebhook(t, messengerEvent('page', fb.externalId, '700101', { message: { mid: 'm_name_3', text: 'Again' } }));
      await t.settled();
      expect(profileCalls()).toHaveLength(3);
    });
  });

  async function agentSend(channel: ChannelRow, customer: string, text: string): Promise<Message> {
      const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, customer)));
      const chats = chatService(t.app);
      const userId = acme.admin.id;
      const identity = identityFor({ userId, email: acme.admin.email, companyId: acme.company, role: 'admin' });
      const { ctx } = await t.hub.join(identity, `room:${room.id}`);
      const reply = await t.hub.push(ctx, 'send_message', { message: { text, client_id: `c-${text}` } });
      expect(reply.status).toBe('ok');
      await chats.settled();
      return reply.response.message;
    }
  const statusOf = async (id: number) => (await t.db.select().from(messages).where(eq(messages.id, id)))[0];

  describe('statuses', () => {
    it('WhatsApp statuses out of order and duplicated end monotonic; failed carries the error', async () => {
      await postWebhook(t, waInbound(wa.externalId, '15551230010', 'Stat', { id: wamid(), type: 'text', text: { body: 'hi' } }));
      await t.settled();
      const sent = await agentSend(wa, '15551230010', 'Hello there');
      const row = await statusOf(sent.id);
      expect(row).toMatchObject({ status: 'sent', externalId: expect.stringMatching(/^wamid\.OUT/) });
      t.hub.clear();
      await postWebhook(t, waStatuses(wa.externalId, [{ id: row.externalId!, status: 'read' }, { id: row.externalId!, status: 'delivered' }]));
      await postWebhook(t, waStatuses(wa.externalId, [{ id: row.externalId!, status: 'sent' }, { id: row.externalId!, status: 'read' }]));
      await t.settled();
      expect((await statusOf(sent.id)).status).toBe('read');
      expect(t.hub.since(0, { event: 'message_status' }).map((b) => b.payload.status)).toEqual(['read']);

      const second = await agentSend(wa, '15551230010', 'Will fail');
      const ext = (await statusOf(second.id)).externalId!;
      await postWebhook(t, waStatuses(wa.externalId, [{ id: ext, status: 'failed', errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours' } }] }]));
      await t.settled();
      expect(await statusOf(second.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('Re-engagement message') });
    });

    it('Messenger watermarks move every outgoing message created up to the watermark forward', async () => {
      await postWebhook(t, messengerEvent('page', fb.externalId, '700010', { message: { mid: 'm_10', text: 'hello' } }));
      await t.settled();
      const first = await agentSend(fb, '700010', 'one');
      const second = await agentSend(fb, '700010', 'two');
      t.clock.advance(60_000);
      const third = await agentSend(fb, '700010', 'three');
      const watermark = new Date(t.clock.now().getTime() - 30_000).getTime();
      await postWebhook(t, messengerEvent('page', fb.externalId, '700010', { delivery: { watermark } }));
      await t.settled();
      expect([(await statusOf(first.id)).status, (await statusOf(second.id)).status, (await statusOf(third.id)).status]).toEqual(['delivered', 'delivered', 'sent']);
      await postWebhook(t, messengerEvent('page', fb.externalId, '700010', { read: { watermark: t.clock.now().getTime() } }));
      // An older delivery watermark arriving late changes nothing.
      await postWebhook(t, messengerEvent('page', fb.externalId, '700010', { delivery: { watermark } }));
      await t.settled();
      expect([(await statusOf(first.id)).status, (await statusOf(second.id)).status, (await statusOf(third.id)).status]).toEqual(['read', 'read', 'read']);
      expect(t.graph.sent.at(-1)).toMatchObject({ via: 'messenger', from: 'page-100', token: 'fb-token', to: '700010' });
    });
  });

  describe('reactions, orders and system lines (issue #25)', () => {
    const react = (customer: string, target: string, emoji: string, id = wamid()) =>
      postWebhook(t, waInbound(wa.externalId, customer, 'Rea', { id, type: 'reaction', reaction: { message_id: target, emoji } }));

    it("a WhatsApp reaction is stored on the message it reacts to (ours or the customer's), pushed as message_status, idempotent; a reaction to an unknown message is ignored", async () => {
      const c = '15551230040';
      const inboundId = wamid();
      await postWebhook(t, waInbound(wa.externalId, c, 'Rea', { id: inboundId, type: 'text', text: { body: 'hi' } }));
      await t.settled();
      const sent = await agentSend(wa, c, 'Hello Rea');
      const ours = await statusOf(sent.id);
      t.hub.clear();

      // Built once: Meta redelivers the very same payload (its timestamp included; a payload built a second later
      // would be a newer reaction).
      const thumbsUp = waInbound(wa.externalId, c, 'Rea', { id: wamid(), type: 'reaction', reaction: { message_id: ours.externalId, emoji: '👍' } });
      await postWebhook(t, thumbsUp);
      await react(c, inboundId, '❤️');
      await t.settled();
      expect((await statusOf(sent.id)).data).toMatchObject({ reaction: '👍', reaction_at: expect.any(String) });
      const [customerMessage] = await roomMessages(wa.id, c);
      expect(customerMessage.data).toMatchObject({ reaction: '❤️' });
      const pushed = t.hub.since(0, { topic: `room:${ours.roomId}`, event: 'message_status' }).map((b) => b.payload as Message);
      expect(pushed.map((m) => [m.id, m.data?.reaction])).toEqual([
        [sent.id, '👍'],
        [customerMessage.id, '❤️'],
      ]);
      // Reactions are no messages of their own.
      expect(await roomMessages(wa.id, c)).toHaveLength(2);

      // Meta redelivers the same reaction: nothing changes, nothing is pushed.
      t.hub.clear();
      await postWebhook(t, thumbsUp);
      await t.settled();
      expect(t.hub.since(0, { event: 'message_status' })).toEqual([]);

      // Removed (an empty emoji), then a reaction older than the removal arrives late: it stays removed.
      await react(c, ours.externalId!, '');
      await t.settled();
      expect((await statusOf(sent.id)).data).toMatchObject({ reaction: null });
      const late = waInbound(wa.externalId, c, 'Rea', { id: wamid(), type: 'reaction', reaction: { message_id: ours.externalId, emoji: '😮' } });
      (late.entry[0].changes[0].value.messages[0] as { timestamp: string }).timestamp = String(Math.floor(Date.now() / 1000) - 3600);
      await postWebhook(t, late);
      await t.settled();
      expect((await statusOf(sent.id)).data).toMatchObject({ reaction: null });

      // A message we never had, or another customer's: logged and ignored, the event processed (never retried).
      await react(c, 'wamid.NEVER', '👍');
      await react('15551230041', ours.externalId!, '👍');
      await t.settled();
      expect((await events()).slice(-2).map((e) => [e.processedAt !== null, e.error])).toEqual([
        [true, null],
        [true, null],
      ]);
      expect(await roomMessages(wa.id, '15551230041')).toEqual([]);
    });

    it('Messenger reactions (react, unreact) reach the page message they react to', async () => {
      await postWebhook(t, messengerEvent('page', fb.externalId, '700040', { message: { mid: 'm_40', text: 'hello' } }));
      await t.settled();
      const sent = await agentSend(fb, '700040', 'Hi from the page');
      const mid = (await statusOf(sent.id)).externalId!;
      await postWebhook(t, messengerEvent('page', fb.externalId, '700040', { reaction: { mid, action: 'react', reaction: 'love', emoji: '❤️' } }));
      await t.settled();
      expect((await statusOf(sent.id)).data).toMatchObject({ reaction: '❤️' });
      t.clock.advance(1_000);
      await postWebhook(t, messengerEvent('page', fb.externalId, '700040', { reaction: { mid, action: 'unreact' } }));
      await t.settled();
      expect((await statusOf(sent.id)).data).toMatchObject({ reaction: null });

      // A blocked customer's reactions are dropped like their messages.
      await t.db.update(rooms).set({ blockedAt: new Date() }).where(eq(rooms.id, (await statusOf(sent.id)).roomId));
      await postWebhook(t, messengerEvent('page', fb.externalId, '700040', { reaction: { mid, action: 'react', emoji: '😠' } }));
      await t.settled();
      expect((await statusOf(sent.id)).data).toMatchObject({ reaction: null });
      expect((await events()).at(-1)).toMatchObject({ processedAt: expect.any(Date), error: null });
    });

    it('an order is a customer message with a readable text and the order in data', async () => {
      const order = { catalog_id: 'CAT1', text: 'Gift wrap please', product_items: [{ product_retailer_id: 'SKU-1', quantity: 2, item_price: 12.5, currency: 'EUR' }, { product_retailer_id: 'SKU-2', quantity: 1, item_price: 5, currency: 'EUR' }] };
      const id = wamid();
      await postWebhook(t, waInbound(wa.externalId, '15551230042', 'Buyer', { id, type: 'order', order }));
      await t.settled();
      const [message] = await roomMessages(wa.id, '15551230042');
      expect(message).toMatchObject({
        origin: 'user',
        type: 'text',
        text: 'Order: 2 × SKU-1 at 12.50 EUR, 1 × SKU-2 at 5.00 EUR · total 30.00 EUR\nGift wrap please',
        data: { order },
        clientId: `meta:${id}`,
      });
    });

    it('a message WhatsApp cannot show is a system line (opening the room), never queued for bots or flows, idempotent', async () => {
      const c = '15551230043';
      const id = wamid();
      const payload = waInbound(wa.externalId, c, 'Poller', { id, type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] });
      await postWebhook(t, payload);
      await t.settled();
      await postWebhook(t, JSON.stringify(payload, null, 1));
      await t.settled();
      const lines = await roomMessages(wa.id, c);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        origin: 'system',
        text: 'The customer sent a message this channel cannot show (see it in the WhatsApp app)',
        data: { system: 'unsupported', platform: 'whatsapp', detail: '131051 Message type unknown' },
        clientId: `meta:${id}`,
      });
      const waiting = await t.db.execute(sql`select message_id from inbound_waiting where message_id = ${lines[0].id}`).then((r) => (r as unknown as { rows: unknown[] }).rows);
      expect(waiting).toEqual([]);
      const [room] = await t.db.select().from(rooms).where(eq(rooms.id, lines[0].roomId));
      expect(room).toMatchObject({ name: 'Poller', lastInboundAt: expect.any(Date) });
      expect(t.hub.since(0, { topic: `page:${wa.id}`, event: 'new_room' }).map((b) => b.payload.room.external_id)).toContain(c);
    });

    it('a number change is a system line in the customer’s room, which then follows the new number (unless it has a room already)', async () => {
      const [old, next] = ['15551230044', '15551230045'];
      await postWebhook(t, waInbound(wa.externalId, old, old, { id: wamid(), type: 'text', text: { body: 'before' } }));
      await t.settled();
      const [first] = await roomMessages(wa.id, old);
      t.hub.clear();
      const id = wamid();
      const change = waInbound(wa.externalId, old, 'x', {
        id,
        type: 'system',
        system: { body: `User changed from ${old} to ${next}`, new_wa_id: next, type: 'user_changed_number' },
      });
      await postWebhook(t, change);
      await t.settled();
      expect(await roomMessages(wa.id, old)).toEqual([]);
      const moved = await roomMessages(wa.id, next);
      expect(moved.map((m) => [m.origin, m.text, m.data])).toEqual([
        ['user', 'before', null],
        ['system', `The customer changed their number to +${next}`, { system: 'number_changed', new_id: next }],
      ]);
      const [room] = await t.db.select().from(rooms).where(eq(rooms.id, first.roomId));
      // Named after the number it was: renamed with it.
      expect(room).toMatchObject({ externalId: next, name: next });
      expect(t.hub.since(0, { topic: `page:${wa.id}`, event: 'room_info' }).at(-1)!.payload.room).toMatchObject({ id: room.id, external_id: next });
      // The next message from the new number continues the same conversation; the change replayed changes nothing.
      await postWebhook(t, waInbound(wa.externalId, next, 'Newnum', { id: wamid(), type: 'text', text: { body: 'after' } }));
      await postWebhook(t, JSON.stringify(change, null, 1));
      await t.settled();
      expect((await roomMessages(wa.id, next)).map((m) => m.text)).toEqual(['before', `The customer changed their number to +${next}`, 'after']);

      // The new number already has its own conversation: the line in the old one, both rooms stay.
      const [a, b] = ['15551230046', '15551230047'];
      await postWebhook(t, waInbound(wa.externalId, a, 'Ann', { id: wamid(), type: 'text', text: { body: 'old phone' } }));
      await postWebhook(t, waInbound(wa.externalId, b, 'Ann', { id: wamid(), type: 'text', text: { body: 'new phone' } }));
      await postWebhook(t, waInbound(wa.externalId, a, 'Ann', { id: wamid(), type: 'system', system: { body: 'changed', new_wa_id: b, type: 'user_changed_number' } }));
      // A number change of a customer we never talked to: nothing to show.
      await postWebhook(t, waInbound(wa.externalId, '15551230048', 'Nobody', { id: wamid(), type: 'system', system: { body: 'changed', new_wa_id: '15551230049', type: 'user_changed_number' } }));
      await t.settled();
      expect((await roomMessages(wa.id, a)).map((m) => m.origin)).toEqual(['user', 'system']);
      expect((await roomMessages(wa.id, b)).map((m) => m.text)).toEqual(['new phone']);
      expect(await roomMessages(wa.id, '15551230049')).toEqual([]);
      expect((await events()).at(-1)).toMatchObject({ processedAt: expect.any(Date), error: null });
    });
  });

  describe('durable processing', () => {
    it('unprocessed events are processed after a restart', async () => {
      const id = wamid();
      const payload = waInbound(wa.externalId, '15551230020', 'Late', { id, type: 'text', text: { body: 'stored before the crash' } });
      const [event] = await t.db.insert(webhookEvents).values({ provider: 'meta', payload }).returning();
      await t.restart();
      await eventually(async () => expect((await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)))[0].processedAt).not.toBeNull());
      expect((await roomMessages(wa.id, '15551230020'))[0]).toMatchObject({ text: 'stored before the crash', externalId: id });
    });

    it('a failing event counts attempts, is retried with back-off, then processed; after maxAttempts it is given up with its error', async () => {
      const processor = channelsRuntime(t.app).webhooks;
      // The media download fails temporarily twice.
      const { GraphApiError } = await import('../../providers/meta/types');
      t.graph.media.set('media-flaky', { bytes: Buffer.from('png'), mimeType: 'image/png' });
      t.graph.failNext('downloadMedia', new GraphApiError('Service unavailable', 503, 2, null, true), 2);
      await postWebhook(t, waInbound(wa.externalId, '15551230030', 'Flaky', { id: wamid(), type: 'image', image: { id: 'media-flaky', mime_type: 'image/png' } }));
      await t.settled();
      let [event] = (await events()).slice(-1);
      expect(event).toMatchObject({ attempts: 1, processedAt: null, error: 'Service unavailable' });
      // Not due yet (5 s back-off on the test clock).
      expect(await processor.processPending()).toBe(0);
      t.clock.advance(5_000);
      expect(await processor.processPending()).toBe(0);
      [event] = (await events()).slice(-1);
      expect(event).toMatchObject({ attempts: 2, processedAt: null });
      t.clock.advance(10_000);
      expect(await processor.processPending()).toBe(1);
      [event] = (await events()).slice(-1);
      expect(event).toMatchObject({ attempts: 3, processedAt: expect.any(Date), error: null });
      expect((await roomMessages(wa.id, '15551230030'))[0]).toMatchObject({ type: 'image', mediaType: 'image/png' });

      // Always failing: given up after maxAttempts, the error kept.
      processor.timing = { ...processor.timing, maxAttempts: 3 };
      t.graph.failNext('downloadMedia', new GraphApiError('Still down', 503, 2, null, true), 10);
      await postWebhook(t, waInbound(wa.externalId, '15551230031', 'Doomed', { id: wamid(), type: 'image', image: { id: 'media-flaky', mime_type: 'image/png' } }));
      await t.settled();
      for (let i = 0; i < 5; i++) {
        t.clock.advance(10 * 60_000);
        await processor.processPending();
      }
      [event] = (await events()).slice(-1);
      expect(event).toMatchObject({ attempts: 3, processedAt: null, error: 'Still down' });
    });
  });
});
