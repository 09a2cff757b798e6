import { describe, expect, it } from 'vitest';
import { parseMetaWebhook, signMetaPayload, verifyMetaSignature } from './webhooks';

const SECRET = 'app-secret';

describe('verifyMetaSignature', () => {
  const body = Buffer.from('{"object":"page","entry":[]}');
  const header = signMetaPayload(body, SECRET);

  it('accepts the HMAC-SHA256 of the exact bytes', () => {
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyMetaSignature(body, header, SECRET)).toBe(true);
    expect(verifyMetaSignature(body, header.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBe(true);
  });

  it('refuses a tampered body, another secret and malformed headers', () => {
    expect(verifyMetaSignature(Buffer.from('{"object":"page","entry":[] }'), header, SECRET)).toBe(false);
    expect(verifyMetaSignature(body, header, 'other-secret')).toBe(false);
    for (const bad of [undefined, '', 'sha256=', 'sha1=' + header.slice(7), header.slice(7), 'sha256=zz' + header.slice(9), header + '00', 'sha256=' + 'a'.repeat(63)]) {
      expect(verifyMetaSignature(body, bad, SECRET)).toBe(false);
    }
    expect(verifyMetaSignature(body, header, '')).toBe(false);
  });
});

const META = { display_phone_number: '15550101234', phone_number_id: 'PN1' };

function wa(value: Record<string, unknown>) {
  return { object: 'whatsapp_business_account', entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: META, ...value } }] }] };
}

const CONTACTS = [{ profile: { name: 'Kerry Fisher' }, wa_id: '16315551234' }];

function inbound(message: Record<string, unknown>) {
  return wa({ contacts: CONTACTS, messages: [{ from: '16315551234', id: 'wamid.ID', timestamp: '1700000000', ...message }] });
}

describe('parseMetaWebhook: WhatsApp messages', () => {
  it('parses a text message with the contact name', () => {
    expect(parseMetaWebhook(inbound({ type: 'text', text: { body: 'Hello' } }))).toEqual([
      {
        kind: 'message',
        platform: 'whatsapp',
        channelExternalId: 'PN1',
        customerId: '16315551234',
        customerName: 'Kerry Fisher',
        messageId: 'wamid.ID',
        timestamp: '2023-11-14T22:13:20.000Z',
        type: 'text',
        text: 'Hello',
        mediaId: null,
        mediaUrl: null,
        mediaType: null,
        data: null,
      },
    ]);
  });

  it.each([
    ['image', { type: 'image', image: { caption: 'Cat', mime_type: 'image/jpeg', sha256: 'x', id: 'M1' } }, { type: 'image', text: 'Cat', mediaId: 'M1', mediaType: 'image/jpeg', data: null }],
    ['video', { type: 'video', video: { mime_type: 'video/mp4', sha256: 'x', id: 'M2' } }, { type: 'video', text: null, mediaId: 'M2', mediaType: 'video/mp4' }],
    ['audio (voice)', { type: 'audio', audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'x', id: 'M3', voice: true } }, { type: 'audio', mediaId: 'M3', mediaType: 'audio/ogg; codecs=opus' }],
    [
      'document',
      { type: 'document', document: { caption: 'Invoice', filename: 'inv.pdf', mime_type: 'application/pdf', sha256: 'x', id: 'M4' } },
      { type: 'document', text: 'Invoice', mediaId: 'M4', mediaType: 'application/pdf', data: { filename: 'inv.pdf' } },
    ],
    ['sticker', { type: 'sticker', sticker: { mime_type: 'image/webp', sha256: 'x', id: 'M5', animated: false } }, { type: 'image', mediaId: 'M5', mediaType: 'image/webp', data: { sticker: true, animated: false } }],
    [
      'template quick-reply button',
      { type: 'button', context: { from: '15550101234', id: 'wamid.SENT' }, button: { text: 'Track order', payload: 'TRACK' } },
      { type: 'button_reply', text: 'Track order', data: { id: 'TRACK', title: 'Track order', source: 'template', context_message_id: 'wamid.SENT' } },
    ],
    [
      'interactive button reply',
      { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } } },
      { type: 'button_reply', text: 'Yes', data: { id: 'yes', title: 'Yes' } },
    ],
    [
      'interactive list reply',
      { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'l', title: 'Large', description: 'Serves 4' } } },
      { type: 'list_reply', text: 'Large', data: { id: 'l', title: 'Large', description: 'Serves 4' } },
    ],
    [
      'location',
      { type: 'location', location: { latitude: 48.8584, longitude: 2.2945, name: 'Eiffel Tower', address: 'Paris' } },
      { type: 'location', text: 'Eiffel Tower, Paris', data: { latitude: 48.8584, longitude: 2.2945, name: 'Eiffel Tower', address: 'Paris' } },
    ],
    [
      'contacts',
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Jane Doe' }, phones: [{ phone: '+1 555 0100', type: 'CELL' }] }] },
      { type: 'contacts', text: 'Jane Doe', data: { contacts: [{ name: { formatted_name: 'Jane Doe' }, phones: [{ phone: '+1 555 0100', type: 'CELL' }] }] } },
    ],
  ])('parses %s', (_name, message, expected) => {
    const [event] = parseMetaWebhook(inbound(message));
    expect(event).toMatchObject({ kind: 'message', platform: 'whatsapp', messageId: 'wamid.ID', customerName: 'Kerry Fisher', ...expected });
  });

  it('skips malformed messages and unknown types but keeps the rest', () => {
    const payload = wa({
      contacts: CONTACTS,
      messages: [
        { from: '16315551234', id: 'wamid.T', timestamp: '1700000000', type: 'text' },
        { id: 'wamid.nofrom', type: 'text', text: { body: 'x' } },
        { from: '16315551234', id: 'wamid.R0', timestamp: '1700000000', type: 'reaction', reaction: { emoji: '👍' } },
        { from: '16315551234', id: 'wamid.O0', timestamp: '1700000000', type: 'order', order: { catalog_id: 'C', product_items: [] } },
        { from: '16315551234', id: 'wamid.S0', timestamp: '1700000000', type: 'system', system: { type: 'user_changed_number', body: 'no new number' } },
        { from: '16315551234', id: 'wamid.S1', timestamp: '1700000000', type: 'system', system: { type: 'user_changed_user_id', body: 'BSUID changed' } },
        { from: '16315551234', id: 'wamid.X', timestamp: '1700000000', type: 'request_welcome' },
        { from: '16315551234', id: 'wamid.OK', timestamp: '1700000000', type: 'text', text: { body: 'kept' } },
      ],
    });
    expect(parseMetaWebhook(payload).map((e) => e.kind === 'message' && e.messageId)).toEqual(['wamid.OK']);
  });

  it('a reaction is an event of its own about the message it reacts to; an empty emoji removes it (issue #25)', () => {
    const payload = wa({
      messages: [
        { from: '16315551234', id: 'wamid.R1', timestamp: '1700000000', type: 'reaction', reaction: { message_id: 'wamid.OUT1', emoji: '👍' } },
        { from: '16315551234', id: 'wamid.R2', timestamp: '1700000001', type: 'reaction', reaction: { message_id: 'wamid.OUT1', emoji: '' } },
        { from: '16315551234', id: 'wamid.R3', timestamp: '1700000002', type: 'reaction', reaction: { message_id: 'wamid.OUT1' } },
      ],
    });
    expect(parseMetaWebhook(payload)).toEqual([
      { kind: 'reaction', platform: 'whatsapp', channelExternalId: 'PN1', customerId: '16315551234', targetId: 'wamid.OUT1', emoji: '👍', timestamp: '2023-11-14T22:13:20.000Z' },
      expect.objectContaining({ kind: 'reaction', targetId: 'wamid.OUT1', emoji: null, timestamp: '2023-11-14T22:13:21.000Z' }),
      expect.objectContaining({ kind: 'reaction', emoji: null }),
    ]);
  });

  it('an order is a customer text message that reads like one, with the order kept in data (issue #25)', () => {
    const order = {
      catalog_id: 'CAT1',
      text: 'Gift wrap please',
      product_items: [
        { product_retailer_id: 'SKU-1', quantity: '2', item_price: '12.5', currency: 'EUR' },
        { product_retailer_id: 'SKU-2', quantity: 1, item_price: 5, currency: 'EUR' },
      ],
    };
    const [event] = parseMetaWebhook(inbound({ type: 'order', order }));
    expect(event).toMatchObject({
      kind: 'message',
      type: 'text',
      messageId: 'wamid.ID',
      text: 'Order: 2 × SKU-1 at 12.50 EUR, 1 × SKU-2 at 5.00 EUR · total 30.00 EUR\nGift wrap please',
      data: { order },
    });
    // Mixed currencies: no total.
    const mixed = { product_items: [{ product_retailer_id: 'A', quantity: 1, item_price: 3, currency: 'USD' }, { product_retailer_id: 'B', quantity: 1, item_price: 400, currency: 'JPY' }] };
    expect(parseMetaWebhook(inbound({ type: 'order', order: mixed }))[0]).toMatchObject({ text: 'Order: 1 × A at 3.00 USD, 1 × B at 400 JPY' });
  });

  it("a number change and a message WhatsApp cannot show are system events (issue #25)", () => {
    const payload = wa({
      messages: [
        {
          from: '16315551234',
          id: 'wamid.SYS',
          timestamp: '1700000000',
          type: 'system',
          system: { body: 'User Kerry Fisher changed from 16315551234 to 16315559999', new_wa_id: '16315559999', type: 'user_changed_number' },
        },
        // Older Cloud API versions: wa_id and customer_changed_number.
        { from: '16315551234', id: 'wamid.SYS2', timestamp: '1700000000', type: 'system', system: { body: 'changed', wa_id: '16315558888', type: 'customer_changed_number' } },
        { from: '16315551234', id: 'wamid.U', timestamp: '1700000000', type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown' }] },
        { from: '16315551234', id: 'wamid.U2', timestamp: '1700000000', type: 'unknown', errors: [{ code: 131051, details: 'Message type is not currently supported' }] },
      ],
    });
    expect(parseMetaWebhook(payload)).toEqual([
      {
        kind: 'system',
        platform: 'whatsapp',
        channelExternalId: 'PN1',
        customerId: '16315551234',
        customerName: '16315551234',
        messageId: 'wamid.SYS',
        system: 'number_changed',
        newId: '16315559999',
        detail: 'User Kerry Fisher changed from 16315551234 to 16315559999',
        timestamp: '2023-11-14T22:13:20.000Z',
      },
      expect.objectContaining({ kind: 'system', messageId: 'wamid.SYS2', system: 'number_changed', newId: '16315558888' }),
      expect.objectContaining({ kind: 'system', messageId: 'wamid.U', system: 'unsupported', newId: null, detail: '131051 Message type unknown' }),
      expect.objectContaining({ kind: 'system', messageId: 'wamid.U2', system: 'unsupported', detail: '131051' }),
    ]);
  });

  it('falls back to the wa_id when the contact has no name', () => {
    const [event] = parseMetaWebhook(wa({ messages: [{ from: '4915112345678', id: 'wamid.N', timestamp: '1700000000', type: 'text', text: { body: 'Hallo' } }] }));
    expect(event).toMatchObject({ customerId: '4915112345678', customerName: '4915112345678' });
  });
});

describe('parseMetaWebhook: WhatsApp statuses', () => {
  const status = (id: string, value: string, timestamp: string, extra: Record<string, unknown> = {}) => ({ id, status: value, timestamp, recipient_id: '16315551234', ...extra });

  it('keeps statuses as received, out of order and duplicated (ordering is the consumer’s job)', () => {
    const payload = wa({
      statuses: [status('wamid.A', 'read', '1700000003'), status('wamid.A', 'sent', '1700000001'), status('wamid.A', 'delivered', '1700000002'), status('wamid.A', 'delivered', '1700000002')],
    });
    const events = parseMetaWebhook(payload);
    expect(events.map((e) => e.kind === 'status' && e.status)).toEqual(['read', 'sent', 'delivered', 'delivered']);
    expect(events[0]).toEqual({
      kind: 'status',
      platform: 'whatsapp',
      channelExternalId: 'PN1',
      messageId: 'wamid.A',
      status: 'read',
      watermark: null,
      recipientId: '16315551234',
      error: null,
      timestamp: '2023-11-14T22:13:23.000Z',
    });
  });

  it('gives the reason of a failed message', () => {
    const failed = status('wamid.F', 'failed', '1700000004', {
      errors: [{ code: 131047, title: 'Re-engagement message', message: 'Re-engagement message', error_data: { details: 'More than 24 hours have passed.' } }],
    });
    const [event] = parseMetaWebhook(wa({ statuses: [failed, status('wamid.G', 'deleted', '1700000005')] }));
    expect(event).toMatchObject({ status: 'failed', messageId: 'wamid.F', error: 'Re-engagement message: More than 24 hours have passed. (131047)' });
    expect(parseMetaWebhook(wa({ statuses: [status('wamid.H', 'failed', '1')] }))[0]).toMatchObject({ error: 'The message could not be delivered.' });
  });

  it('parses several entries and changes in one delivery', () => {
    const one = wa({ statuses: [status('wamid.1', 'sent', '1')] });
    const two = inbound({ type: 'text', text: { body: 'x' } });
    const payload = { object: 'whatsapp_business_account', entry: [...one.entry, ...two.entry] };
    expect(parseMetaWebhook(payload).map((e) => e.kind)).toEqual(['status', 'message']);
  });
});

describe('parseMetaWebhook: Messenger and Instagram', () => {
  function page(messaging: Record<string, unknown>[], object = 'page', id = 'PAGE1') {
    return { object, entry: [{ id, time: 1700000000000, messaging: messaging.map((m) => ({ sender: { id: 'PSID1' }, recipient: { id }, timestamp: 1700000000123, ...m })) }] };
  }

  it('parses text, quick replies, attachments and postbacks', () => {
    const events = parseMetaWebhook(
      page([
        { message: { mid: 'm_1', text: 'hello' } },
        { message: { mid: 'm_2', text: 'Small', quick_reply: { payload: 'SIZE_S' } } },
        { message: { mid: 'm_3', attachments: [{ type: 'image', payload: { url: 'https://cdn.fb/a.jpg' } }, { type: 'file', payload: { url: 'https://cdn.fb/b.pdf' } }] } },
        { postback: { mid: 'm_4', title: 'Get started', payload: 'GET_STARTED' } },
      ]),
    );
    expect(events).toEqual([
      expect.objectContaining({ platform: 'messenger', channelExternalId: 'PAGE1', customerId: 'PSID1', customerName: 'PSID1', messageId: 'm_1', type: 'text', text: 'hello', timestamp: '2023-11-14T22:13:20.123Z' }),
      expect.objectContaining({ messageId: 'm_2', type: 'button_reply', text: 'Small', data: { id: 'SIZE_S', title: 'Small', source: 'quick_reply' } }),
      expect.objectContaining({ messageId: 'm_3', type: 'image', mediaUrl: 'https://cdn.fb/a.jpg', mediaType: 'image', mediaId: null }),
      expect.objectContaining({ messageId: 'm_3#1', type: 'document', mediaUrl: 'https://cdn.fb/b.pdf', mediaType: 'document' }),
      expect.objectContaining({ messageId: 'm_4', type: 'button_reply', text: 'Get started', data: { id: 'GET_STARTED', title: 'Get started', source: 'postback' } }),
    ]);
  });

  it('skips echoes of the page’s own messages, unknown events and reactions without a message or an emoji', () => {
    const events = parseMetaWebhook(
      page([{ message: { mid: 'm_e', text: 'sent by us', is_echo: true, app_id: 1 } }, { optin: { ref: 'x' } }, { reaction: { mid: 'm_1', action: 'react' } }, { reaction: { action: 'react', emoji: '👍' } }]),
    );
    expect(events).toEqual([]);
  });

  it('reactions (message_reactions): react with the emoji (or its word), unreact removes it (issue #25)', () => {
    const events = parseMetaWebhook(
      page([
        { reaction: { mid: 'm_out', action: 'react', reaction: 'love', emoji: '❤️' } },
        { reaction: { mid: 'm_out', action: 'react', reaction: 'like' } },
        { reaction: { mid: 'm_out', action: 'unreact' } },
      ]),
    );
    expect(events).toEqual([
      { kind: 'reaction', platform: 'messenger', channelExternalId: 'PAGE1', customerId: 'PSID1', targetId: 'm_out', emoji: '❤️', timestamp: '2023-11-14T22:13:20.123Z' },
      expect.objectContaining({ kind: 'reaction', emoji: '👍' }),
      expect.objectContaining({ kind: 'reaction', emoji: null }),
    ]);
    expect(parseMetaWebhook(page([{ reaction: { mid: 'ig_out', action: 'react', reaction: 'love', emoji: '😍' } }], 'instagram', 'IG1'))).toEqual([
      expect.objectContaining({ kind: 'reaction', platform: 'instagram', channelExternalId: 'IG1', targetId: 'ig_out', emoji: '😍' }),
    ]);
  });

  it('an Instagram message its API cannot deliver (is_unsupported) is a system event (issue #25)', () => {
    expect(parseMetaWebhook(page([{ message: { mid: 'ig_u', is_unsupported: true } }], 'instagram', 'IG1'))).toEqual([
      expect.objectContaining({ kind: 'system', platform: 'instagram', channelExternalId: 'IG1', customerId: 'PSID1', messageId: 'ig_u', system: 'unsupported' }),
    ]);
  });

  it('turns delivery and read watermarks into statuses', () => {
    const events = parseMetaWebhook(page([{ delivery: { mids: ['m_9'], watermark: 1700000001000 } }, { read: { watermark: 1700000002000 } }]));
    expect(events).toEqual([
      {
        kind: 'status',
        platform: 'messenger',
        channelExternalId: 'PAGE1',
        messageId: null,
        status: 'delivered',
        watermark: '2023-11-14T22:13:21.000Z',
        recipientId: 'PSID1',
        error: null,
        timestamp: '2023-11-14T22:13:20.123Z',
      },
      expect.objectContaining({ status: 'read', watermark: '2023-11-14T22:13:22.000Z', messageId: null }),
    ]);
  });

  it('parses Instagram with the Instagram account as the channel, and its read receipts by mid', () => {
    const events = parseMetaWebhook(page([{ message: { mid: 'ig_1', text: 'hi from IG' } }, { read: { mid: 'ig_sent' } }], 'instagram', 'IG1'));
    expect(events).toEqual([
      expect.objectContaining({ platform: 'instagram', channelExternalId: 'IG1', messageId: 'ig_1', text: 'hi from IG' }),
      expect.objectContaining({ kind: 'status', platform: 'instagram', status: 'read', messageId: 'ig_sent', watermark: null }),
    ]);
  });
});

describe('parseMetaWebhook: never throws', () => {
  it.each([null, undefined, 42, 'text', [], {}, { object: 'page' }, { object: 'page', entry: 'x' }, { object: 'page', entry: [null, 1, { messaging: [null, { sender: 1 }] }] }, { object: 'user', entry: [{ id: '1', changes: [] }] }, { object: 'whatsapp_business_account', entry: [{ changes: [{ value: { metadata: {} } }, null, { value: null }] }] }])(
    'returns [] for %j',
    (body) => {
      expect(parseMetaWebhook(body)).toEqual([]);
    },
  );
});

describe('parseMetaWebhook: WhatsApp user_preferences (marketing messages stopped or resumed)', () => {
  const preferences = (items: unknown[]) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: 'WABA1', changes: [{ field: 'user_preferences', value: { messaging_product: 'whatsapp', metadata: META, contacts: CONTACTS, user_preferences: items } }] }],
  });

  it('gives one event per preference, the value in lower case', () => {
    const events = parseMetaWebhook(
      preferences([
        { wa_id: '16315551234', detail: 'User requested to stop marketing messages', category: 'marketing_messages', value: 'STOP', timestamp: 1700000000 },
        { wa_id: '16315559999', category: 'marketing_messages', value: 'resume', timestamp: 1700000100 },
      ]),
    );
    expect(events).toEqual([
      { kind: 'user_preference', platform: 'whatsapp', channelExternalId: 'PN1', customerId: '16315551234', category: 'marketing_messages', value: 'stop', detail: 'User requested to stop marketing messages', timestamp: '2023-11-14T22:13:20.000Z' },
      { kind: 'user_preference', platform: 'whatsapp', channelExternalId: 'PN1', customerId: '16315559999', category: 'marketing_messages', value: 'resume', detail: null, timestamp: '2023-11-14T22:15:00.000Z' },
    ]);
  });

  it('skips an entry without a wa_id, a category or a value', () => {
    expect(parseMetaWebhook(preferences([{ category: 'marketing_messages', value: 'stop' }, { wa_id: '1', value: 'stop' }, { wa_id: '1', category: 'marketing_messages' }, 'odd']))).toEqual([]);
  });
});
