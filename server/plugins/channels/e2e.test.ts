/**
 * End to end through the real HTTP adapter and the fake Meta (server/providers/meta/fake): embedded
 * signup, a customer writing in through the fake's control API (a signed webhook to this server),
 * the agent's reply reaching the fake, and its statuses coming back up to read. Then a Messenger
 * page connected with a Facebook login token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FacebookPage, SignupStatusResponse } from '../../../contract/channels';
import { testConfig } from '../../core/config';
import { messages, rooms } from '../../core/db/schema';
import { HttpMetaGraph } from '../../providers/meta/graphClient';
import { startFakeMeta, type StartedFakeMeta } from '../../providers/meta/fake/fakeMeta';
import { channelsTestApp, companyFixture, eventually, type ChannelsTestApp, type CompanyFixture } from './testFixtures';
import { identityFor } from '../chats';

describe('channels end to end with the fake Meta', () => {
  let fake: StartedFakeMeta;
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let base = '';

  beforeAll(async () => {
    const defaults = testConfig();
    fake = await startFakeMeta({
      appId: defaults.meta.appId,
      appSecret: defaults.meta.appSecret,
      graphVersion: defaults.meta.graphVersion,
      webhookUrl: () => (base ? `${base}/api/webhooks/meta/` : null),
      statusDelayMs: 20,
    });
    const meta = { ...defaults.meta, graphUrl: fake.graphUrl, sendRetryDelaysMs: [10] };
    t = await channelsTestApp('pglite', {
      config: { meta },
      overrides: { MetaGraph: new HttpMetaGraph(meta, { sleep: async () => {} }) },
    });
    base = await t.listen();
    acme = await companyFixture(t, 'Acme', 'acme.test');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${fake.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<any>;
  };

  it('WhatsApp: signup → customer writes → agent replies → statuses up to read', async () => {
    // The console's embedded signup dialog (the SDK double) hands over a code, the number and the WABA.
    const dialog = await control('/dialog/embedded_signup', { business_name: 'Acme Support', phone_number: '+1 555 0142' });
    const started = await acme.call(acme.admin, 'POST', '/api/wa-onboard/embedded_signup/', {
      phone_number_id: dialog.phone_number_id,
      waba_id: dialog.waba_id,
      code: dialog.code,
      company: acme.company,
      email: acme.admin.email,
    });
    expect(started.statusCode).toBe(202);
    await t.settled();
    const status = (await acme.call(acme.admin, 'GET', `/api/wa-onboard/signup_status/?external_id=${dialog.phone_number_id}`)).json() as SignupStatusResponse;
    expect(status).toMatchObject({ status: 'completed', error: null });
    const state = await control('/control/state');
    expect(state.phoneNumbers[dialog.phone_number_id]).toMatchObject({ registered: true });
    expect(state.wabas[dialog.waba_id]).toMatchObject({ subscribed: true });
    const templates = await acme.call(acme.agent, 'GET', `/api/channels/${status.channel_id}/templates/`);
    expect(templates.statusCode).toBe(200);
    expect(Array.isArray(templates.json().results)).toBe(true);

    // A customer writes in: the fake posts a signed webhook to this server.
    const inbound = await control('/control/inbound', { phone_number_id: dialog.phone_number_id, from: '15557654321', name: 'Maria', text: 'Do you ship to Spain?' });
    expect(inbound.webhook_status).toBe(200);
    const stored = await eventually(async () => {
      const [row] = await t.db.select().from(messages).where(eq(messages.externalId, inbound.message_id));
      expect(row).toBeDefined();
      return row;
    });
    expect(stored).toMatchObject({ origin: 'user', text: 'Do you ship to Spain?', senderName: 'Maria' });
    // The row is stored before it is announced: wait for the announcement too.
    await eventually(async () => expect(t.hub.since(0, { topic: `page:${status.channel_id}`, event: 'new_room' })).toHaveLength(1));

    // An image too: downloaded from the fake with the business token.
    const image = await control('/control/inbound', { phone_number_id: dialog.phone_number_id, from: '15557654321', name: 'Maria', type: 'image', text: 'This one' });
    const storedImage = await eventually(async () => {
      const [row] = await t.db.select().from(messages).where(eq(messages.externalId, image.message_id));
      expect(row).toBeDefined();
      return row;
    });
    expect(storedImage).toMatchObject({ type: 'image', text: 'This one', mediaUrl: expect.stringMatching(/^\/media\/chats\/\d+\/inbound\//) });
    expect(t.media.objects.size).toBeGreaterThan(0);

    // The agent replies; the fake receives it and reports sent, delivered; then the customer reads it.
    const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, status.channel_id), eq(rooms.externalId, '15557654321')));
    const { ctx } = await t.hub.join(identityFor({ userId: acme.agent.id, email: acme.agent.email, companyId: acme.company, role: 'agent' }), `room:${room.id}`);
    const reply = await t.hub.push(ctx, 'send_message', { message: { text: 'Yes, in 3 days.', client_id: 'e2e-1' } });
    expect(reply.status).toBe('ok');
    const id = reply.response.message.id as number;
    const sentRow = await eventually(async () => {
      const [row] = await t.db.select().from(messages).where(eq(messages.id, id));
      expect(row.status).toBe('delivered');
      return row;
    });
    const sent = await control(`/control/sent?channel_id=${dialog.phone_number_id}`);
    expect(sent.data.find((m: { id: string }) => m.id === sentRow.externalId)).toMatchObject({ recipient: '15557654321', summary: expect.stringContaining('Yes, in 3 days.') });
    await control('/control/status', { message_id: sentRow.externalId, status: 'read' });
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.id, id)))[0].status).toBe('read'));
    await eventually(async () =>
      expect(t.hub.since(0, { topic: `room:${room.id}`, event: 'message_status' }).map((b) => b.payload.status)).toEqual(['sent', 'delivered', 'read']),
    );

    // Issue #25: the customer reacts to the reply, orders from the catalogue, sends something WhatsApp cannot show, then changes number.
    const phone = dialog.phone_number_id;
    await control('/control/reaction', { message_id: sentRow.externalId, emoji: '👍' });
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.id, id)))[0].data).toMatchObject({ reaction: '👍' }));
    const order = await control('/control/order', { phone_number_id: phone, from: '15557654321', text: 'Gift wrap' });
    await eventually(async () => {
      const [row] = await t.db.select().from(messages).where(eq(messages.externalId, order.message_id));
      expect(row).toMatchObject({ roomId: room.id, origin: 'user', text: 'Order: 2 × SKU-1 at 12.50 EUR, 1 × SKU-2 at 5.00 EUR · total 30.00 EUR\nGift wrap' });
    });
    await control('/control/unsupported', { phone_number_id: phone, from: '15557654321' });
    await control('/control/number_change', { phone_number_id: phone, from: '15557654321', new_number: '+15557650000' });
    await eventually(async () => expect((await t.db.select().from(rooms).where(eq(rooms.id, room.id)))[0].externalId).toBe('15557650000'));
    const lines = await t.db.select().from(messages).where(and(eq(messages.roomId, room.id), eq(messages.origin, 'system'))).orderBy(messages.id);
    expect(lines.map((m) => m.data)).toEqual([
      { system: 'unsupported', platform: 'whatsapp', detail: '131051 Message type unknown' },
      { system: 'number_changed', new_id: '15557650000' },
    ]);
    // The conversation continues on the new number.
    const after = await t.hub.push(ctx, 'send_message', { message: { text: 'Noted your new number.', client_id: 'e2e-2' } });
    expect(after.status).toBe('ok');
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.id, after.response.message.id as number)))[0].status).toBe('delivered'));
    const resent = await control(`/control/sent?channel_id=${phone}`);
    expect(resent.data.at(-1)).toMatchObject({ recipient: '15557650000', summary: expect.stringContaining('Noted your new number.') });
  });

  it('Messenger: a page connected with a Facebook login token; its customer’s message and the reply', async () => {
    const login = await control('/dialog/login', {
      email: 'owner@acme.test',
      first_name: 'Olga',
      scopes: ['pages_show_list', 'pages_messaging', 'pages_manage_metadata', 'business_management', 'instagram_basic', 'instagram_manage_messages'],
    });
    const pages = (await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', { access_token: login.accessToken })).json().results as FacebookPage[];
    expect(pages).toHaveLength(1);
    const connected = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'messenger', access_token: login.accessToken, page_id: pages[0].id });
    expect(connected.statusCode).toBe(201);
    const channelId = connected.json().id as number;

    const inbound = await control('/control/inbound', { page_id: pages[0].id, sender_id: '1234567890', name: 'Olga Petrova', text: 'Hello page' });
    expect(inbound.webhook_status).toBe(200);
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.externalId, inbound.message_id)))[0]).toBeDefined());
    const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, '1234567890')));
    // The webhook carries the PSID only: the name comes from the User Profile API (issue #23).
    expect(room.name).toBe('Olga Petrova');
    const { ctx } = await t.hub.join(identityFor({ userId: acme.agent.id, email: acme.agent.email, companyId: acme.company, role: 'agent' }), `room:${room.id}`);
    const reply = await t.hub.push(ctx, 'send_message', { message: { text: 'Hi from the page', client_id: 'e2e-fb-1' } });
    const id = reply.response.message.id as number;
    // The fake reports a delivery watermark for Messenger sends.
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.id, id)))[0].status).toBe('delivered'));

    expect((await acme.call(acme.admin, 'DELETE', `/api/channels/${channelId}/`)).statusCode).toBe(204);
    const state = await control('/control/state');
    expect(state.pages[pages[0].id].subscribedFields).toEqual([]);
  });

  // Issue #25: the reply goes to the linked page's /messages (Meta's Instagram messaging with Facebook login), and the
  // fake knew the customer only under the Instagram account's id: every reply failed with "No matching user found".
  it('Instagram: connected through its page; the customer’s message and the reply sent as the page, then read', async () => {
    const login = await control('/dialog/login', {
      email: 'insta@acme.test',
      first_name: 'Ines',
      scopes: ['pages_show_list', 'pages_messaging', 'pages_manage_metadata', 'business_management', 'instagram_basic', 'instagram_manage_messages'],
    });
    const [page] = (await acme.call(acme.admin, 'POST', '/api/channels/facebook_pages/', { access_token: login.accessToken })).json().results as FacebookPage[];
    const connected = await acme.call(acme.admin, 'POST', '/api/channels/', { platform: 'instagram', access_token: login.accessToken, page_id: page.id });
    expect(connected.statusCode, connected.body).toBe(201);
    const channelId = connected.json().id as number;
    const igId = connected.json().external_id as string;
    expect(igId).not.toBe(page.id);

    const igsid = '1780000000000042';
    const inbound = await control('/control/inbound', { ig_id: igId, sender_id: igsid, text: 'Is the blue one in stock?' });
    expect(inbound.webhook_status).toBe(200);
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.externalId, inbound.message_id)))[0]).toBeDefined());
    const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channelId), eq(rooms.externalId, igsid)));
    expect(room.name).toBe('Customer 0042'); // the fake's name for a customer it was given none for, from Instagram's profile API
    const { ctx } = await t.hub.join(identityFor({ userId: acme.agent.id, email: acme.agent.email, companyId: acme.company, role: 'agent' }), `room:${room.id}`);
    const reply = await t.hub.push(ctx, 'send_message', { message: { text: 'Yes, two left.', client_id: 'e2e-ig-1' } });
    expect(reply.status).toBe('ok');
    const id = reply.response.message.id as number;
    const sentRow = await eventually(async () => {
      const [row] = await t.db.select().from(messages).where(eq(messages.id, id));
      expect(row.status).toBe('sent');
      return row;
    });
    // Posted as the page (its id in the path, the page token), filed by the fake in the Instagram conversation.
    const sent = await control(`/control/sent?channel_id=${igId}`);
    expect(sent.data.find((m: { id: string }) => m.id === sentRow.externalId)).toMatchObject({ recipient: igsid, summary: 'Yes, two left.' });
    // Instagram reports reads by message id.
    await control('/control/status', { message_id: sentRow.externalId, status: 'read' });
    await eventually(async () => expect((await t.db.select().from(messages).where(eq(messages.id, id)))[0].status).toBe('read'));
  });
});
