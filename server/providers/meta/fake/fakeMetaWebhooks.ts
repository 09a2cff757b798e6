/**
 * The webhook JSON Meta posts (developers.facebook.com/docs/whatsapp/cloud-api/webhooks,
 * /docs/messenger-platform/webhooks), built for the fake's customers and status changes, and
 * delivered like Meta does: a JSON POST signed with X-Hub-Signature-256.
 */
import { signMetaPayload } from '../webhooks';
import type { FakeMetaStore, FakePhoneNumber } from './fakeMetaStore';

const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** `{ object: 'whatsapp_business_account', entry: [{ id: waba, changes: [{ field: 'messages', value }] }] }`. */
export function whatsAppEnvelope(phone: FakePhoneNumber, value: Record<string, unknown>, field = 'messages'): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: phone.wabaId,
        changes: [
          {
            field,
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: phone.display_phone_number.replace(/\D/g, ''), phone_number_id: phone.id },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/**
 * Field `user_preferences`: the customer stopped or resumed the business's marketing messages
 * (the WhatsApp Cloud API's marketing-message preference webhook).
 */
export function whatsAppUserPreferencePayload(phone: FakePhoneNumber, customer: { waId: string; name: string }, value: 'stop' | 'resume') {
  return whatsAppEnvelope(
    phone,
    {
      contacts: [{ profile: { name: customer.name }, wa_id: customer.waId }],
      user_preferences: [
        {
          wa_id: customer.waId,
          detail: value === 'stop' ? 'User requested to stop marketing messages' : 'User requested to resume marketing messages',
          category: 'marketing_messages',
          value,
          timestamp: Number(nowSeconds()),
        },
      ],
    },
    'user_preferences',
  );
}

export function whatsAppInboundPayload(phone: FakePhoneNumber, customer: { waId: string; name: string }, message: Record<string, unknown>) {
  return whatsAppEnvelope(phone, {
    contacts: [{ profile: { name: customer.name }, wa_id: customer.waId }],
    messages: [{ from: customer.waId, timestamp: nowSeconds(), ...message }],
  });
}

/**
 * A `messages[]` entry that is not a customer's text (a reaction, an order, a system message, an unsupported
 * message): the same envelope; system messages carry no contacts array (Meta's system messages reference).
 */
export function whatsAppMessagesPayload(phone: FakePhoneNumber, customer: { waId: string; name: string | null }, message: Record<string, unknown>) {
  return whatsAppEnvelope(phone, {
    ...(customer.name ? { contacts: [{ profile: { name: customer.name }, wa_id: customer.waId }] } : {}),
    messages: [{ from: customer.waId, timestamp: nowSeconds(), ...message }],
  });
}

/** Titles Meta gives the failure codes a demo is likely to try. */
const FAILURE_TITLES: Record<number, { title: string; details: string }> = {
  131047: {
    title: 'Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  131026: { title: 'Message undeliverable', details: 'Unable to deliver message. Reasons can include: the recipient phone number is not a WhatsApp phone number.' },
  131049: { title: 'This message was not delivered to maintain healthy ecosystem engagement.', details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
  131050: { title: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.', details: 'The recipient opted out of marketing messages.' },
};

export function whatsAppStatusPayload(
  phone: FakePhoneNumber,
  status: { messageId: string; recipientId: string; status: 'sent' | 'delivered' | 'read' | 'failed'; errorCode?: number },
) {
  const entry: Record<string, unknown> = {
    id: status.messageId,
    status: status.status,
    timestamp: nowSeconds(),
    recipient_id: status.recipientId,
  };
  if (status.status === 'sent' || status.status === 'delivered') {
    entry.conversation = { id: `conv-${status.recipientId}`, origin: { type: 'service' } };
    entry.pricing = { billable: true, pricing_model: 'PMP', category: 'service' };
  }
  if (status.status === 'failed') {
    const code = status.errorCode ?? 131026;
    const known = FAILURE_TITLES[code] ?? { title: 'Message failed to send', details: `Error ${code}.` };
    entry.errors = [{ code, title: known.title, message: known.title, error_data: { details: known.details }, href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/' }];
  }
  return whatsAppEnvelope(phone, { statuses: [entry] });
}

/** Messenger ("page", entry id = page id) and Instagram ("instagram", entry id = Instagram account id). */
export function messagingPayload(platform: 'messenger' | 'instagram', channelId: string, event: Record<string, unknown>) {
  const time = Date.now();
  return {
    object: platform === 'messenger' ? 'page' : 'instagram',
    entry: [{ id: channelId, time, messaging: [{ recipient: { id: channelId }, timestamp: time, ...event }] }],
  };
}

export type WebhookTarget = string | (() => string | null | undefined) | undefined;

export interface WebhookDeliveryResult {
  status: number | null;
  error: string | null;
}

/** Posts one signed webhook; never throws (the result is returned and kept in the fake's log). */
export async function deliverWebhook(target: WebhookTarget, appSecret: string, payload: Record<string, unknown>, store: FakeMetaStore): Promise<WebhookDeliveryResult> {
  const url = typeof target === 'function' ? target() : target;
  let result: WebhookDeliveryResult;
  if (!url) {
    result = { status: null, error: 'No webhook URL is configured.' };
  } else {
    const body = JSON.stringify(payload);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaPayload(body, appSecret), 'user-agent': 'facebookexternalua' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      result = { status: response.status, error: response.ok ? null : `HTTP ${response.status}` };
    } catch (err) {
      result = { status: null, error: err instanceof Error ? err.message : String(err) };
    }
  }
  store.logWebhook({ at: new Date().toISOString(), object: String(payload.object), ...result });
  return result;
}
