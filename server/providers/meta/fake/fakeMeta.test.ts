import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetaWebhook, verifyMetaSignature } from '../webhooks';
import type { StatusWebhookEvent } from '../types';
import { startFakeMeta, type StartedFakeMeta } from './fakeMeta';
import { connectedNumber, customerWrites, graphFor, postJson, TEST_APP_ID, TEST_APP_SECRET } from './testSupport';

/** A webhook receiver like the product's: records the raw body and headers. */
interface Received {
  raw: Buffer;
  headers: IncomingHttpHeaders;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

let fake: StartedFakeMeta;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end('EVENT_RECEIVED');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/meta/`;
  fake = await startFakeMeta({ appId: TEST_APP_ID, appSecret: TEST_APP_SECRET, webhookUrl: () => receiverUrl, statusDelayMs: 5 });
});
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function waitFor<T>(check: () => T | undefined | null | false, timeoutMs = 3000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function eventsSince(index: number) {
  return received.slice(index).flatMap((r) => parseMetaWebhook(JSON.parse(r.raw.toString())));
}

describe('control API → signed webhooks', () => {
  it('posts a customer message as a signed WhatsApp webhook', async () => {
    const graph = graphFor(fake);
    const number = await connectedNumber(fake, graph, '+1 555-010-0001');
    const before = received.length;
    const answer = await customerWrites(fake, { phone_number_id: number.phoneNumberId, from: '+15550002222', name: 'Ana', text: 'Is it open?' });
    expect(answer).toMatchObject({ message_id: expect.stringMatching(/^wamid\./), webhook_status: 200, webhook_error: null });

    const delivery = received[before];
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(verifyMetaSignature(delivery.raw, delivery.headers['x-hub-signature-256'] as string, TEST_APP_SECRET)).toBe(true);
    expect(verifyMetaSignature(delivery.raw, delivery.headers['x-hub-signature-256'] as string, 'other')).toBe(false);
    const body = JSON.parse(delivery.raw.toString());
    expect(body).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [{ id: number.wabaId, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: number.phoneNumberId, display_phone_number: '15550100001' } } }] }],
    });
    expect(parseMetaWebhook(body)).toEqual([
      expect.objectContaining({ kind: 'message', channelExternalId: number.phoneNumberId, customerId: '15550002222', customerName: 'Ana', text: 'Is it open?', messageId: answer.message_id }),
    ]);
  });

  it('builds every WhatsApp inbound kind the parser knows', async () => {
    const number = await connectedNumber(fake, graphFor(fake));
    const base = { phone_number_id: number.phoneNumberId, from: '15550003333', name: 'Bo' };
    const before = received.length;
    await customerWrites(fake, { ...base, type: 'button', text: 'Track', payload: 'TRACK' });
    await customerWrites(fake, { ...base, type: 'interactive', reply: { id: 'yes', title: 'Yes' } });
    await customerWrites(fake, { ...base, type: 'interactive', interactive_type: 'list_reply', reply: { id: 'l', title: 'Large', description: 'Big' } });
    await customerWrites(fake, { ...base, type: 'location', latitude: 1.5, longitude: 2.5, location_name: 'Shop' });
    const image = await customerWrites(fake, { ...base, type: 'image', text: 'photo' });
    await customerWrites(fake, { ...base, type: 'contacts' });
    expect(eventsSince(before).map((e) => e.kind === 'message' && [e.type, e.text])).toEqual([
      ['button_reply', 'Track'],
      ['button_reply', 'Yes'],
      ['list_reply', 'Large'],
      ['location', 'Shop'],
      ['image', 'photo'],
      ['contacts', 'Jane Doe'],
    ]);
    expect(eventsSince(before)[4]).toMatchObject({ mediaId: image.media_id, mediaType: 'image/png' });
  });

  it('posts Messenger and Instagram messages with the page or Instagram account as entry id', async () => {
    const login = fake.state.login({ email: 'shop@example.com', firstName: 'Ola', lastName: 'N', scopes: ['pages_show_list'] });
    const page = Object.values(fake.state.data.pages).find((p) => p.ownerUserId === login.userID)!;
    const before = received.length;
    const messenger = await customerWrites(fake, { page_id: page.id, sender_id: '2400000000000009', text: 'hi page' });
    await customerWrites(fake, { page_id: page.id, sender_id: '2400000000000009', postback: { title: 'Start', payload: 'START' } });
    await customerWrites(fake, { ig_id: page.instagram!.id, sender_id: '1780000000000009', text: 'hi ig' });
    const bodies = received.slice(before).map((r) => JSON.parse(r.raw.toString()));
    expect(bodies.map((b) => [b.object, b.entry[0].id])).toEqual([
      ['page', page.id],
      ['page', page.id],
      ['instagram', page.instagram!.id],
    ]);
    expect(eventsSince(before)).toEqual([
      expect.objectContaining({ platform: 'messenger', messageId: messenger.message_id, text: 'hi page', customerId: '2400000000000009' }),
      expect.objectContaining({ platform: 'messenger', type: 'button_reply', text: 'Start' }),
      expect.objectContaining({ platform: 'instagram', text: 'hi ig' }),
    ]);
    expect((await postJson(`${fake.url}/control/inbound`, { page_id: 'nope', text: 'x' })).status).toBe(404);
    expect((await postJson(`${fake.url}/control/inbound`, { phone_number_id: 'x', from: 'abc', text: 'x' })).status).toBe(400);
  });

  it('reactions, orders, number changes and unsupported messages in Meta’s formats (issue #25)', async () => {
    const graph = graphFor(fake);
    const number = await connectedNumber(fake, graph);
    const base = { phone_number_id: number.phoneNumberId, from: '15550006666' };
    const written = await customerWrites(fake, { ...base, name: 'Cy', text: 'hi' });
    const { messageId } = await graph.sendWhatsApp(number.phoneNumberId, number.token, '15550006666', { kind: 'text', text: 'Hello Cy' });
    const before = received.length;
    const control = async (path: string, body: Record<string, unknown>) => {
      const res = await postJson(`${fake.url}${path}`, body);
      expect(res.status).toBe(200);
      return res.json;
    };
    await control('/control/reaction', { message_id: messageId, emoji: '👍' });
    await control('/control/reaction', { message_id: written.message_id, emoji: '' });
    const order = await control('/control/order', { ...base, text: 'Gift wrap' });
    await control('/control/unsupported', base);
    const change = await control('/control/number_change', { ...base, new_number: '+15550007777' });
    // Sent messages are filtered out: statuses of the reply may interleave.
    const events = eventsSince(before).filter((e) => e.kind !== 'status');
    expect(events).toEqual([
      expect.objectContaining({ kind: 'reaction', platform: 'whatsapp', customerId: '15550006666', targetId: messageId, emoji: '👍' }),
      expect.objectContaining({ kind: 'reaction', targetId: written.message_id, emoji: null }),
      expect.objectContaining({ kind: 'message', messageId: order.message_id, type: 'text', text: 'Order: 2 × SKU-1 at 12.50 EUR, 1 × SKU-2 at 5.00 EUR · total 30.00 EUR\nGift wrap' }),
      expect.objectContaining({ kind: 'system', system: 'unsupported', customerName: 'Cy' }),
      expect.objectContaining({ kind: 'system', system: 'number_changed', messageId: change.message_id, customerId: '15550006666', newId: '15550007777' }),
    ]);
    // The customer (and their window) follows them to the new number: the business can answer there.
    await expect(graph.sendWhatsApp(number.phoneNumberId, number.token, '15550007777', { kind: 'text', text: 'Got it' })).resolves.toMatchObject({ messageId: expect.any(String) });

    // Messenger: react and unreact.
    const login = fake.state.login({ email: 'react@example.com', firstName: 'Re', lastName: 'Act', scopes: ['pages_show_list'] });
    const page = Object.values(fake.state.data.pages).find((p) => p.ownerUserId === login.userID)!;
    const fromPage = await customerWrites(fake, { page_id: page.id, sender_id: '2400000000000077', text: 'hey' });
    const mark = received.length;
    await control('/control/reaction', { message_id: fromPage.message_id, emoji: '❤️' });
    await control('/control/reaction', { message_id: fromPage.message_id });
    expect(eventsSince(mark).filter((e) => e.kind !== 'status')).toEqual([
      expect.objectContaining({ kind: 'reaction', platform: 'messenger', channelExternalId: page.id, customerId: '2400000000000077', targetId: fromPage.message_id, emoji: '❤️' }),
      expect.objectContaining({ kind: 'reaction', platform: 'messenger', emoji: null }),
    ]);
    expect((await postJson(`${fake.url}/control/reaction`, { message_id: 'wamid.nope', emoji: '👍' })).status).toBe(404);
    expect((await postJson(`${fake.url}/control/number_change`, { ...base, new_number: base.from })).status).toBe(400);
  });

  it('reports a webhook the receiver refused', async () => {
    const refusing = await startFakeMeta({ appId: TEST_APP_ID, appSecret: TEST_APP_SECRET, webhookUrl: 'http://127.0.0.1:9/nowhere' });
    try {
      const signup = refusing.state.createWhatsAppBusiness();
      const answer = await postJson(`${refusing.url}/control/inbound`, { phone_number_id: signup.phoneNumberId, from: '15550004444', text: 'x' });
      expect(answer.json).toMatchObject({ webhook_status: null, webhook_error: expect.any(String) });
      expect(refusing.state.data.webhooks.at(-1)).toMatchObject({ status: null, object: 'whatsapp_business_account' });
    } finally {
      await refusing.close();
    }
  });
});

describe('statuses of sent messages', () => {
  it("sends 'sent' then 'delivered' after a WhatsApp send, and 'read' on demand", async () => {
    const graph = graphFor(fake);
    const number = await connectedNumber(fake, graph);
    await customerWrites(fake, { phone_number_id: number.phoneNumberId, from: '15550005555', text: 'hello' });
    const before = received.length;
    const { messageId } = await graph.sendWhatsApp(number.phoneNumberId, number.token, '15550005555', { kind: 'text', text: 'Hi!' });
    const statuses = await waitFor(() => {
      const events = eventsSince(before).filter((e): e is StatusWebhookEvent => e.kind === 'status');
      return events.length >= 2 && events;
    });
    expect(statuses.map((s) => [s.messageId, s.status, s.recipientId])).toEqual([
      [messageId, 'sent', '15550005555'],
      [messageId, 'delivered', '15550005555'],
    ]);

    const read = await postJson(`${fake.url}/control/status`, { message_id: messageId, status: 'read' });
    expect(read.json).toMatchObject({ webhook_status: 200 });
    expect(eventsSince(before).at(-1)).toMatchObject({ kind: 'status', messageId, status: 'read' });

    const sent = (await (await fetch(`${fake.url}/control/sent?channel_id=${number.phoneNumberId}`)).json()) as any;
    expect(sent.data).toEqual([
      expect.objectContaining({
        id: messageId,
        platform: 'whatsapp',
        recipient: '15550005555',
        payload: expect.objectContaining({ type: 'text', text: { body: 'Hi!', preview_url: false } }),
        statuses: [expect.objectContaining({ status: 'sent' }), expect.objectContaining({ status: 'delivered' }), expect.objectContaining({ status: 'read' })],
      }),
    ]);

    const failed = await postJson(`${fake.url}/control/status`, { message_id: messageId, status: 'failed', error_code: 131026 });
    expect(failed.json.webhook_status).toBe(200);
    expect(eventsSince(before).at(-1)).toMatchObject({ status: 'failed', error: expect.stringMatching(/Message undeliverable.*\(131026\)/) });
    expect((await postJson(`${fake.url}/control/status`, { message_id: 'wamid.unknown', status: 'read' })).status).toBe(404);
  });

  it('fails a free-form message outside the 24-hour window with 131047, like Meta', async () => {
    const graph = graphFor(fake);
    const number = await connectedNumber(fake, graph);
    const before = received.length;
    const { messageId } = await graph.sendWhatsApp(number.phoneNumberId, number.token, '15550006666', { kind: 'text', text: 'cold message' });
    const [status] = await waitFor(() => eventsSince(before).length > 0 && eventsSince(before));
    expect(status).toMatchObject({ kind: 'status', messageId, status: 'failed', error: expect.stringMatching(/^Re-engagement message/) });

    // A template may open the conversation.
    const template = await graph.sendWhatsApp(number.phoneNumberId, number.token, '15550006666', { kind: 'template', name: 'hello_world', language: 'en_US', bodyParameters: [] });
    await waitFor(() => eventsSince(before).filter((e) => e.kind === 'status' && e.messageId === template.messageId && e.status === 'delivered').length === 1);
  });

  it('sends a delivery watermark after a Messenger send', async () => {
    const graph = graphFor(fake);
    const login = fake.state.login({ email: 'wm@example.com', firstName: 'Wm', lastName: 'K', scopes: ['pages_show_list'] });
    const [page] = await graph.managedPages(login.accessToken);
    await customerWrites(fake, { page_id: page.id, sender_id: '2400000000000077', text: 'hi' });
    const before = received.length;
    await graph.sendMessenger(page.id, page.access_token, '2400000000000077', { kind: 'text', text: 'hello' });
    const [delivery] = await waitFor(() => eventsSince(before).length > 0 && eventsSince(before));
    expect(delivery).toMatchObject({ kind: 'status', platform: 'messenger', status: 'delivered', messageId: null, watermark: expect.any(String), recipientId: '2400000000000077' });
  });
});

describe('history', () => {
  it('records messages sent before it knew of them, with their times and statuses, once; no webhook is posted', async () => {
    const graph = graphFor(fake);
    const number = await connectedNumber(fake, graph, '+1 555-010-0042');
    const before = received.length;
    const message = {
      id: 'wamid.history-1',
      to: '+14155550101',
      payload: { messaging_product: 'whatsapp', to: '14155550101', type: 'template', template: { name: 'welcome_offer', language: { code: 'en_US' } } },
      summary: '[template] welcome_offer',
      created_at: '2026-11-25T10:00:00.000Z',
      statuses: [
        { status: 'sent', at: '2026-11-25T10:00:00.000Z' },
        { status: 'read', at: '2026-11-25T10:05:00.000Z' },
      ],
    };
    expect((await postJson(`${fake.url}/control/history`, { phone_number_id: number.phoneNumberId, messages: [message] })).json).toEqual({ added: 1 });
    expect((await postJson(`${fake.url}/control/history`, { phone_number_id: number.phoneNumberId, messages: [message] })).json).toEqual({ added: 0 });
    const sent = (await (await fetch(`${fake.url}/control/sent?channel_id=${number.phoneNumberId}`)).json()) as { data: { id: string; recipient: string; created_at: string; statuses: { status: string }[] }[] };
    expect(sent.data).toEqual([expect.objectContaining({ id: 'wamid.history-1', recipient: '14155550101', created_at: '2026-11-25T10:00:00.000Z', statuses: [expect.objectContaining({ status: 'sent' }), expect.objectContaining({ status: 'read' })] })]);
    expect(received.length).toBe(before);
    expect((await postJson(`${fake.url}/control/history`, { phone_number_id: 'nope', messages: [message] })).status).toBe(404);
    expect((await postJson(`${fake.url}/control/history`, { phone_number_id: number.phoneNumberId, messages: [{ ...message, to: 'x' }] })).status).toBe(400);
  });
});

describe('graph conventions', () => {
  it('answers errors in Meta’s format and refuses unknown versions', async () => {
    const response = await fetch(`${fake.graphUrl}/v23.0/me`, { headers: { authorization: 'Bearer nope' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'OAuthException', code: 190, fbtrace_id: expect.any(String) } });
    const version = await fetch(`${fake.graphUrl}/latest/me`);
    expect(((await version.json()) as any).error.code).toBe(2635);
  });

  it('validates WhatsApp sends like the Cloud API', async () => {
    const graph = graphFor(fake);
    const number = await connectedNumber(fake, graph);
    const url = `${fake.graphUrl}/v23.0/${number.phoneNumberId}/messages?appsecret_proof=${(await import('../graphClient')).appSecretProof(number.token, TEST_APP_SECRET)}`;
    const send = async (body: unknown) => {
      const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${number.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, error: ((await response.json()) as any).error };
    };
    expect(await send({ to: '15550001', type: 'text', text: { body: 'x' } })).toMatchObject({ status: 400, error: { code: 100, message: '(#100) The parameter messaging_product is required.' } });
    expect(await send({ messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } })).toMatchObject({ error: { code: 100, message: '(#100) The parameter to is required.' } });
    expect(await send({ messaging_product: 'whatsapp', to: '15550001', type: 'text', text: {} })).toMatchObject({ error: { code: 100, error_data: { details: "The parameter text['body'] is required." } } });
    expect(await send({ messaging_product: 'whatsapp', to: '15550001', type: 'poll' })).toMatchObject({ error: { code: 100 } });
    const buttons = (n: number, title = 'Ok') => ({
      messaging_product: 'whatsapp',
      to: '15550001',
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'x' }, action: { buttons: Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title } })) } },
    });
    expect(await send(buttons(4))).toMatchObject({ error: { code: 131009 } });
    expect(await send(buttons(1, 'x'.repeat(21)))).toMatchObject({ error: { code: 131009, error_data: { details: expect.stringMatching(/Max length: 20/) } } });
    expect((await send(buttons(3))).status).toBe(200);
  });

  it('accepts form-encoded bodies, as the Graph API does', async () => {
    const graph = graphFor(fake);
    const signup = fake.state.createWhatsAppBusiness();
    const { accessToken } = await graph.exchangeCode(signup.code);
    const { appSecretProof } = await import('../graphClient');
    const response = await fetch(`${fake.graphUrl}/v23.0/${signup.phoneNumberId}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ messaging_product: 'whatsapp', pin: '111111', access_token: accessToken, appsecret_proof: appSecretProof(accessToken, TEST_APP_SECRET) }),
    });
    expect(await response.json()).toEqual({ success: true });
  });
});

describe('dialogs, assets and state', () => {
  it('creates a WABA through the embedded signup dialog, and a user with a page through the login dialog', async () => {
    const signup = await postJson(`${fake.url}/dialog/embedded_signup`, { business_name: 'Dialog Co', phone_number: '+1 555 010 8888' });
    expect(signup.json).toEqual({ code: expect.any(String), phone_number_id: expect.stringMatching(/^\d+$/), waba_id: expect.stringMatching(/^\d+$/) });
    const again = await postJson(`${fake.url}/dialog/embedded_signup`, { phone_number: '15550108888' });
    expect(again.json.phone_number_id).toBe(signup.json.phone_number_id);

    const login = await postJson(`${fake.url}/dialog/login`, { email: 'Jo@Example.com', first_name: 'Jo', last_name: 'Ray', scopes: 'email,pages_show_list' });
    expect(login.json).toEqual({ accessToken: expect.stringMatching(/^EAA/), userID: expect.any(String), expiresIn: expect.any(Number), grantedScopes: 'public_profile,email,pages_show_list' });
    const pages = await graphFor(fake).managedPages(login.json.accessToken);
    expect(pages).toEqual([expect.objectContaining({ name: "Jo's Shop", instagram: { id: expect.any(String), username: 'jo.shop' } })]);
  });

  it('serves the SDK double, the demo page and its script', async () => {
    const sdk = await fetch(`${fake.url}/sdk.js`);
    expect(sdk.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await sdk.text()).toContain('WA_EMBEDDED_SIGNUP');
    const page = await (await fetch(`${fake.url}/`)).text();
    expect(page).toContain('<title>Fake Meta (local)</title>');
    expect(page).toContain('<script src="/demo.js"></script>');
    expect(page).not.toMatch(/<script>/);
    expect((await fetch(`${fake.url}/demo.js`)).status).toBe(200);
  });

  it('keeps its state in a file across restarts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fake-meta-'));
    const statePath = path.join(dir, 'fake-meta.json');
    try {
      const first = await startFakeMeta({ appId: TEST_APP_ID, appSecret: TEST_APP_SECRET, statePath, autoStatuses: false });
      const number = await connectedNumber(first, graphFor(first));
      await first.close();
      const second = await startFakeMeta({ appId: TEST_APP_ID, appSecret: TEST_APP_SECRET, statePath, autoStatuses: false });
      try {
        expect(await graphFor(second).phoneNumber(number.phoneNumberId, number.token)).toMatchObject({ id: number.phoneNumberId });
        const state = (await (await fetch(`${second.url}/control/state`)).json()) as any;
        expect(Object.keys(state.phoneNumbers)).toEqual([number.phoneNumberId]);
        await postJson(`${second.url}/control/reset`, {});
        expect(second.state.data.phoneNumbers).toEqual({});
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
