import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StartedFakeMeta } from './fake/fakeMeta';
import { connectedNumber, customerWrites, graphFor, postJson, startTestFakeMeta, TEST_APP_ID } from './fake/testSupport';
import { appSecretProof, HttpMetaGraph } from './graphClient';
import { OutboundContentError } from './outboundPayloads';
import { GraphApiError, type OutboundContent } from './types';

let fake: StartedFakeMeta;
let graph: HttpMetaGraph;
let number: Awaited<ReturnType<typeof connectedNumber>>;
const CUSTOMER = '15550001111';

beforeAll(async () => {
  fake = await startTestFakeMeta({ maxPageSize: 2 });
  graph = graphFor(fake);
  number = await connectedNumber(fake, graph);
  await customerWrites(fake, { phone_number_id: number.phoneNumberId, from: CUSTOMER, name: 'Kim', text: 'Hi' });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.state.data.failNext = null;
});

function lastSent() {
  return fake.state.data.messages.filter((m) => m.direction === 'outbound').at(-1)!;
}

describe('sendWhatsApp: what Meta receives', () => {
  const cases: [string, OutboundContent, Record<string, unknown>][] = [
    ['text', { kind: 'text', text: 'Hello https://example.com', previewUrl: true }, { type: 'text', text: { body: 'Hello https://example.com', preview_url: true } }],
    [
      'image with caption',
      { kind: 'media', mediaType: 'image', link: 'https://cdn.example.com/a.png', caption: 'Look' },
      { type: 'image', image: { link: 'https://cdn.example.com/a.png', caption: 'Look' } },
    ],
    ['video', { kind: 'media', mediaType: 'video', link: 'https://cdn.example.com/v.mp4' }, { type: 'video', video: { link: 'https://cdn.example.com/v.mp4' } }],
    [
      'audio (no caption allowed: dropped)',
      { kind: 'media', mediaType: 'audio', link: 'https://cdn.example.com/a.ogg', caption: 'ignored', filename: 'x.ogg' },
      { type: 'audio', audio: { link: 'https://cdn.example.com/a.ogg' } },
    ],
    [
      'document with filename',
      { kind: 'media', mediaType: 'document', link: 'https://cdn.example.com/i.pdf', caption: 'Invoice', filename: 'invoice.pdf' },
      { type: 'document', document: { link: 'https://cdn.example.com/i.pdf', caption: 'Invoice', filename: 'invoice.pdf' } },
    ],
    [
      'reply buttons',
      { kind: 'buttons', body: 'Pick one', header: 'Menu', footer: 'Thanks', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }] },
      {
        type: 'interactive',
        interactive: {
          type: 'button',
          header: { type: 'text', text: 'Menu' },
          body: { text: 'Pick one' },
          footer: { text: 'Thanks' },
          action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }, { type: 'reply', reply: { id: 'no', title: 'No' } }] },
        },
      },
    ],
    [
      'list',
      {
        kind: 'list',
        body: 'Choose a size',
        buttonText: 'Sizes',
        sections: [
          { title: 'Small', rows: [{ id: 's', title: 'S', description: 'Fits 1' }] },
          { title: 'Large', rows: [{ id: 'l', title: 'L' }] },
        ],
      },
      {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: 'Choose a size' },
          action: {
            button: 'Sizes',
            sections: [
              { title: 'Small', rows: [{ id: 's', title: 'S', description: 'Fits 1' }] },
              { title: 'Large', rows: [{ id: 'l', title: 'L' }] },
            ],
          },
        },
      },
    ],
    [
      'template with body parameters',
      { kind: 'template', name: 'order_update', language: 'en_US', bodyParameters: ['Kim', 'A-42'] },
      {
        type: 'template',
        template: { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Kim' }, { type: 'text', text: 'A-42' }] }] },
      },
    ],
    [
      'template without parameters (no components)',
      { kind: 'template', name: 'hello_world', language: 'en_US', bodyParameters: [] },
      { type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } },
    ],
  ];

  it.each(cases)('%s', async (_name, content, expected) => {
    const { messageId } = await graph.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, content);
    expect(messageId).toMatch(/^wamid\./);
    const sent = lastSent();
    expect(sent.id).toBe(messageId);
    expect(sent.customer_id).toBe(CUSTOMER);
    expect(sent.payload).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: CUSTOMER, ...expected });
  });

  it('records the template rendered with its parameters', async () => {
    await graph.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'template', name: 'order_update', language: 'en_US', bodyParameters: ['Kim', 'A-42'] });
    expect(lastSent().summary).toBe('[template order_update] Hi Kim, your order A-42 has shipped.');
  });

  it('refuses content WhatsApp cannot take before calling Meta', async () => {
    const before = fake.state.data.messages.length;
    const tooMany = { kind: 'buttons' as const, body: 'x', buttons: ['a', 'b', 'c', 'd'].map((id) => ({ id, title: id })) };
    await expect(graph.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, tooMany)).rejects.toThrow(new OutboundContentError('WhatsApp allows at most 3 buttons.'));
    const longTitle = { kind: 'buttons' as const, body: 'x', buttons: [{ id: 'a', title: 'A title longer than twenty' }] };
    await expect(graph.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, longTitle)).rejects.toThrow(/too long .*at most 20/);
    const rows = Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
    const bigList = { kind: 'list' as const, body: 'x', buttonText: 'Open', sections: [{ title: 'All', rows }] };
    await expect(graph.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, bigList)).rejects.toThrow(/at most 10 rows/);
    expect(fake.state.data.messages.length).toBe(before);
  });

  it("maps Meta's template errors to clear messages, without retrying", async () => {
    const error = await graph
      .sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'template', name: 'order_update', language: 'en_US', bodyParameters: ['only one'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphApiError);
    expect(error).toMatchObject({ code: 132000, httpStatus: 400, retryable: false, message: "The number of template parameters does not match the template's placeholders." });
    await expect(graph.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'template', name: 'spring_sale', language: 'en_US', bodyParameters: ['10%'] })).rejects.toMatchObject({
      code: 132001,
      message: 'The template does not exist in this language, or is not approved yet.',
    });
  });
});

describe('sendWhatsApp: retries', () => {
  it('retries a 130429 throughput error and then succeeds', async () => {
    const waits: number[] = [];
    const retrying = graphFor(fake, { sendRetryDelaysMs: [5, 10, 20] }, { sleep: async (ms) => void waits.push(ms) });
    await postJson(`${fake.url}/control/fail_next`, { count: 2, code: 130429 });
    const { messageId } = await retrying.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'text', text: 'after throttling' });
    expect(waits).toEqual([5, 10]);
    expect(lastSent()).toMatchObject({ id: messageId, summary: 'after throttling' });
  });

  it('retries an HTTP 429, honouring a longer Retry-After', async () => {
    const waits: number[] = [];
    const calls: number[] = [];
    let first = true;
    const throttledOnce: typeof fetch = async (input, init) => {
      calls.push(Date.now());
      if (first && String(input).includes('/messages')) {
        first = false;
        return new Response(JSON.stringify({ error: { message: 'Too many calls', type: 'OAuthException', code: 4 } }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '2' },
        });
      }
      return fetch(input, init);
    };
    const retrying = graphFor(fake, { sendRetryDelaysMs: [5] }, { fetch: throttledOnce, sleep: async (ms) => void waits.push(ms) });
    const { messageId } = await retrying.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'text', text: 'after 429' });
    expect(waits).toEqual([2000]);
    expect(calls).toHaveLength(2);
    expect(lastSent().id).toBe(messageId);
  });

  it('throws a retryable GraphApiError once the delays are used up', async () => {
    let sleeps = 0;
    const retrying = graphFor(fake, { sendRetryDelaysMs: [1, 1] }, { sleep: async () => void sleeps++ });
    await postJson(`${fake.url}/control/fail_next`, { count: 5, code: 131056 });
    const error = await retrying.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'text', text: 'never' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphApiError);
    expect(error).toMatchObject({ code: 131056, retryable: true });
    expect(sleeps).toBe(2);
    expect(fake.state.data.failNext?.count).toBe(2); // 3 attempts consumed 3 failures
  });

  it('treats 5xx and network failures as retryable', async () => {
    await postJson(`${fake.url}/control/fail_next`, { count: 1, code: 1, http_status: 500 });
    const noRetries = graphFor(fake, { sendRetryDelaysMs: [] });
    await expect(noRetries.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'text', text: 'x' })).rejects.toMatchObject({ httpStatus: 500, retryable: true });
    const unreachable = graphFor(fake, { graphUrl: 'http://127.0.0.1:9/graph', sendRetryDelaysMs: [] });
    await expect(unreachable.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'text', text: 'x' })).rejects.toMatchObject({
      httpStatus: 0,
      retryable: true,
      message: expect.stringMatching(/could not be reached/),
    });
  });

  it('does not retry a non-retryable error', async () => {
    let sleeps = 0;
    const retrying = graphFor(fake, { sendRetryDelaysMs: [1, 1] }, { sleep: async () => void sleeps++ });
    await postJson(`${fake.url}/control/fail_next`, { count: 1, code: 131026 });
    await expect(retrying.sendWhatsApp(number.phoneNumberId, number.token, CUSTOMER, { kind: 'text', text: 'x' })).rejects.toMatchObject({ code: 131026, retryable: false });
    expect(sleeps).toBe(0);
  });
});

describe('tokens and permissions', () => {
  it('reports an unknown or revoked token with the reconnect wording', async () => {
    await expect(graph.sendWhatsApp(number.phoneNumberId, 'EAAnot-a-token', CUSTOMER, { kind: 'text', text: 'x' })).rejects.toMatchObject({
      code: 190,
      httpStatus: 401,
      retryable: false,
      message: "The channel's access token has expired or was revoked; reconnect the channel.",
    });
  });

  it('sends appsecret_proof, and the fake refuses a wrong one', async () => {
    const wrongSecret = graphFor(fake, { appSecret: 'another-secret' });
    await expect(wrongSecret.phoneNumber(number.phoneNumberId, number.token)).rejects.toMatchObject({ code: 100, message: 'Invalid appsecret_proof provided in the API argument' });
    const url = `${fake.graphUrl}/v23.0/${number.phoneNumberId}?appsecret_proof=${appSecretProof(number.token, 'test-app-secret-0123456789')}`;
    expect((await fetch(url, { headers: { authorization: `Bearer ${number.token}` } })).status).toBe(200);
    expect((await fetch(`${fake.graphUrl}/v23.0/${number.phoneNumberId}`, { headers: { authorization: `Bearer ${number.token}` } })).status).toBe(400);
  });

  it("keeps a business token to its own WABA and numbers (Meta's detail kept for code 100)", async () => {
    const other = fake.state.createWhatsAppBusiness({ phoneNumber: '+1 555 999 0000' });
    await expect(graph.phoneNumber(other.phoneNumberId, number.token)).rejects.toMatchObject({ code: 100, message: expect.stringMatching(/^Unsupported get request\. Object with ID/) });
    await expect(graph.messageTemplates(other.wabaId, number.token)).rejects.toMatchObject({ code: 100 });
  });

  it('accepts a signup code once only', async () => {
    const signup = fake.state.createWhatsAppBusiness();
    await graph.exchangeCode(signup.code);
    await expect(graph.exchangeCode(signup.code)).rejects.toMatchObject({ code: 100, subcode: 36009 });
    await expect(graphFor(fake, { appSecret: 'wrong' }).exchangeCode(fake.state.createWhatsAppBusiness().code)).rejects.toMatchObject({ code: 1 });
  });
});

describe('embedded signup, templates, pages, login, media', () => {
  it('reads the phone number, registers it and subscribes the WABA', async () => {
    const signup = fake.state.createWhatsAppBusiness({ businessName: 'Bakery', phoneNumber: '+1 555-010-2030' });
    const { accessToken } = await graph.exchangeCode(signup.code);
    expect(await graph.phoneNumber(signup.phoneNumberId, accessToken)).toEqual({ id: signup.phoneNumberId, display_phone_number: '+1 555-010-2030', verified_name: 'Bakery' });
    await expect(graph.registerPhone(signup.phoneNumberId, accessToken, '12')).rejects.toMatchObject({ code: 100 });
    await graph.registerPhone(signup.phoneNumberId, accessToken, '654321');
    expect(fake.state.phone(signup.phoneNumberId)?.registered).toBe(true);
    await graph.subscribeWaba(signup.wabaId, accessToken);
    expect(fake.state.waba(signup.wabaId)?.subscribed).toBe(true);
    await graph.unsubscribeWaba(signup.wabaId, accessToken);
    expect(fake.state.waba(signup.wabaId)?.subscribed).toBe(false);
  });

  it('refuses sends from a number not registered yet', async () => {
    const signup = fake.state.createWhatsAppBusiness();
    const { accessToken } = await graph.exchangeCode(signup.code);
    await expect(graph.sendWhatsApp(signup.phoneNumberId, accessToken, CUSTOMER, { kind: 'text', text: 'x' })).rejects.toMatchObject({ code: 133010 });
  });

  it('lists every template, following the pages', async () => {
    // maxPageSize 2: three templates take two pages.
    const templates = await graph.messageTemplates(number.wabaId, number.token);
    expect(templates.map((t) => [t.name, t.status, t.language])).toEqual([
      ['hello_world', 'APPROVED', 'en_US'],
      ['order_update', 'APPROVED', 'en_US'],
      ['spring_sale', 'PENDING', 'en_US'],
    ]);
    expect(templates[1].components).toEqual([{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }]);
    expect(templates[0].id).toMatch(/^\d+$/);
  });

  it('lists managed pages with their tokens and Instagram accounts, subscribes and sends to Messenger', async () => {
    const login = fake.state.login({ email: 'owner@example.com', firstName: 'Maya', lastName: 'Lopez', scopes: ['pages_show_list', 'pages_messaging'] });
    const [page] = await graph.managedPages(login.accessToken);
    expect(page).toMatchObject({ name: "Maya's Shop", instagram: { username: 'maya.shop' } });
    await graph.subscribePage(page.id, page.access_token);
    expect(fake.state.data.pages[page.id].subscribedFields).toEqual(['messages', 'message_deliveries', 'message_reads', 'messaging_postbacks']);

    const psid = '2400000000000001';
    await expect(graph.sendMessenger(page.id, page.access_token, psid, { kind: 'text', text: 'hi' })).rejects.toMatchObject({
      code: 100,
      subcode: 2018001,
      message: expect.stringMatching(/cannot be found/),
    });
    await customerWrites(fake, { page_id: page.id, sender_id: psid, text: 'Hello shop' });

    const sends: [OutboundContent, unknown][] = [
      [{ kind: 'text', text: 'Hello!' }, { text: 'Hello!' }],
      [{ kind: 'media', mediaType: 'document', link: 'https://cdn.example.com/i.pdf' }, { attachment: { type: 'file', payload: { url: 'https://cdn.example.com/i.pdf', is_reusable: true } } }],
      [{ kind: 'media', mediaType: 'image', link: 'https://cdn.example.com/a.png' }, { attachment: { type: 'image', payload: { url: 'https://cdn.example.com/a.png', is_reusable: true } } }],
      [
        { kind: 'buttons', body: 'Pick', buttons: [{ id: 'a', title: 'A' }] },
        { attachment: { type: 'template', payload: { template_type: 'button', text: 'Pick', buttons: [{ type: 'postback', title: 'A', payload: 'a' }] } } },
      ],
      [
        { kind: 'list', body: 'Size?', buttonText: 'Sizes', sections: [{ title: '', rows: [{ id: 's', title: 'Small' }] }] },
        { text: 'Size?', quick_replies: [{ content_type: 'text', title: 'Small', payload: 's' }] },
      ],
    ];
    for (const [content, message] of sends) {
      const { messageId } = await graph.sendMessenger(page.id, page.access_token, psid, content);
      expect(messageId).toMatch(/^m_/);
      expect(lastSent()).toMatchObject({ id: messageId, platform: 'messenger', payload: { recipient: { id: psid }, messaging_type: 'RESPONSE', message } });
    }
    await expect(graph.sendMessenger(page.id, page.access_token, psid, { kind: 'template', name: 'hello_world', language: 'en_US', bodyParameters: [] })).rejects.toThrow(
      'WhatsApp message templates cannot be sent on Messenger or Instagram.',
    );

    // Instagram with Facebook login (Meta's "Send a Message" on the Messenger Platform): POST /{page-id}/messages
    // (or /me/messages) with the page token and the customer's IGSID; the Instagram account's own id is not a sender here.
    const igsid = '1780000000000001';
    await customerWrites(fake, { ig_id: page.instagram!.id, sender_id: igsid, text: 'Hey' });
    const ig = await graph.sendMessenger(page.id, page.access_token, igsid, { kind: 'text', text: 'Hi on IG' }, 'instagram');
    expect(lastSent()).toMatchObject({ id: ig.messageId, platform: 'instagram', channel_id: page.instagram!.id, customer_id: igsid });
    const me = await graph.sendMessenger('me', page.access_token, igsid, { kind: 'text', text: 'Through /me' }, 'instagram');
    expect(lastSent()).toMatchObject({ id: me.messageId, platform: 'instagram', channel_id: page.instagram!.id });
    await expect(graph.sendMessenger(page.instagram!.id, page.access_token, igsid, { kind: 'text', text: 'Hi' }, 'instagram')).rejects.toMatchObject({ code: 100 });
    // Instagram's text is at most 1000 bytes: refused before the call, with a clear message (the fake refuses it too).
    await expect(graph.sendMessenger(page.id, page.access_token, igsid, { kind: 'text', text: 'é'.repeat(501) }, 'instagram')).rejects.toThrow(
      'The message is too long for Instagram (1002 bytes, at most 1000).',
    );
    await expect(graph.sendMessenger(page.id, page.access_token, psid, { kind: 'text', text: 'é'.repeat(501) })).resolves.toMatchObject({ messageId: expect.stringMatching(/^m_/) });

    await graph.unsubscribePage(page.id, page.access_token);
    expect(fake.state.data.pages[page.id].subscribedFields).toEqual([]);
  });

  it('follows paging.next for managed pages', async () => {
    // Each fake user owns one page; a user token sees only its own, so page through a larger store by hand.
    const login = fake.state.login({ email: 'many@example.com', firstName: 'Many', lastName: 'Pages', scopes: ['pages_show_list'] });
    const owner = fake.state.data.pages;
    const first = Object.values(owner).find((p) => p.ownerUserId === login.userID)!;
    for (let i = 0; i < 4; i++) {
      const copy = { ...first, id: `${first.id}${i}`, name: `Extra ${i}`, instagram: null };
      owner[copy.id] = copy;
    }
    const pages = await graph.managedPages(login.accessToken);
    expect(pages.map((p) => p.name)).toEqual(["Many's Shop", 'Extra 0', 'Extra 1', 'Extra 2', 'Extra 3']);
    expect(pages[1].instagram).toBeNull();
  });

  it('debugs user tokens against the app id', async () => {
    const login = fake.state.login({ email: 'dbg@example.com', firstName: 'Deb', lastName: 'Ug', scopes: ['email'] });
    expect(await graph.debugToken(login.accessToken)).toEqual({ isValid: true, appId: TEST_APP_ID, userId: login.userID, scopes: ['public_profile', 'email'] });
    expect(await graph.debugToken('EAAunknown')).toMatchObject({ isValid: false });
    const foreign = fake.state.login({ email: 'dbg@example.com', firstName: 'Deb', lastName: 'Ug', scopes: [], appId: 'another-app' });
    expect(await graph.debugToken(foreign.accessToken)).toMatchObject({ isValid: false, appId: 'another-app' });
    const expired = fake.state.login({ email: 'dbg@example.com', firstName: 'Deb', lastName: 'Ug', scopes: [], expiresInSeconds: -1 });
    expect(await graph.debugToken(expired.accessToken)).toMatchObject({ isValid: false });
  });

  it('reads the Facebook profile (e-mail only with the email scope)', async () => {
    const withEmail = fake.state.login({ email: 'Pat@Example.com', firstName: 'Pat', lastName: 'Lee', scopes: ['email'] });
    expect(await graph.profile(withEmail.accessToken)).toEqual({ id: withEmail.userID, email: 'pat@example.com', first_name: 'Pat', last_name: 'Lee' });
    const without = fake.state.login({ email: 'pat@example.com', firstName: 'Pat', lastName: 'Lee', scopes: [] });
    expect((await graph.profile(without.accessToken)).email).toBeNull();
    await expect(graph.profile('EAAbad')).rejects.toMatchObject({ code: 190, message: expect.stringMatching(/sign in with Facebook again/) });
  });

  it('downloads inbound media with the business token', async () => {
    const bytes = Buffer.from('%PDF-1.4 fake invoice');
    const inbound = await customerWrites(fake, {
      phone_number_id: number.phoneNumberId,
      from: CUSTOMER,
      type: 'document',
      mime_type: 'application/pdf',
      filename: 'invoice.pdf',
      data_base64: bytes.toString('base64'),
    });
    const media = await graph.downloadMedia(inbound.media_id, number.token);
    expect(media.mimeType).toBe('application/pdf');
    expect(media.bytes.equals(bytes)).toBe(true);
    const other = await connectedNumber(fake, graph, '+1 555 777 0000');
    await expect(graph.downloadMedia(inbound.media_id, other.token)).rejects.toMatchObject({ code: 100 });
  });
});
