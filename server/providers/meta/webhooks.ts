/**
 * Meta webhooks: the X-Hub-Signature-256 check over the raw body, and the payloads of WhatsApp
 * (object "whatsapp_business_account"), Messenger ("page") and Instagram ("instagram")
 * normalised to WebhookEvents. Parsing never throws: Meta adds fields and event kinds over time,
 * and one odd entry must not make the whole delivery fail (Meta would then retry it for days).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MessageType } from '../../../contract/chats';
import { orderOf, orderText } from '../../../contract/customerEvents';
import type { InboundWebhookMessage, ReactionWebhookEvent, StatusWebhookEvent, SystemWebhookEvent, TemplateWebhookEvent, WebhookEvent } from './types';

/** The X-Hub-Signature-256 header Meta sends: `sha256=` + HMAC-SHA256(app secret, raw body) in hex. */
export function signMetaPayload(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** True only for a well-formed header whose HMAC matches the exact bytes received. */
export function verifyMetaSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header || !appSecret) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(match[1], 'hex'), expected);
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** WhatsApp timestamps are seconds (as strings), Messenger's milliseconds; anything else → now. */
function isoFrom(value: unknown, unit: 'seconds' | 'milliseconds'): string {
  const n = Number(value);
  if (value === undefined || value === null || value === '' || !Number.isFinite(n)) return new Date().toISOString();
  return new Date(unit === 'seconds' ? n * 1000 : n).toISOString();
}

export function parseMetaWebhook(body: unknown): WebhookEvent[] {
  const root = obj(body);
  if (!root) return [];
  const events: WebhookEvent[] = [];
  for (const entry of arr(root.entry)) {
    const e = obj(entry);
    if (!e) continue;
    try {
      if (root.object === 'whatsapp_business_account') events.push(...whatsAppEntry(e));
      else if (root.object === 'page') events.push(...messagingEntry(e, 'messenger'));
      else if (root.object === 'instagram') events.push(...messagingEntry(e, 'instagram'));
    } catch {
      // Defensive: a shape we did not foresee in one entry skips that entry only.
    }
  }
  return events;
}

/**
 * The template events of a WhatsApp Business Account webhook (fields message_template_status_update
 * and message_template_quality_update; entry.id is the WABA, entry.time the change's time in
 * seconds). Never throws; other fields are left to parseMetaWebhook.
 */
export function parseTemplateWebhook(body: unknown): TemplateWebhookEvent[] {
  const root = obj(body);
  if (!root || root.object !== 'whatsapp_business_account') return [];
  const events: TemplateWebhookEvent[] = [];
  for (const entry of arr(root.entry)) {
    const e = obj(entry);
    const wabaId = str(e?.id);
    if (!e || !wabaId) continue;
    const at = isoFrom(e.time, 'seconds');
    for (const change of arr(e.changes)) {
      const c = obj(change);
      const value = obj(c?.value);
      const templateId = str(value?.message_template_id);
      if (!value || !templateId) continue;
      const common = { wabaId, templateId, name: str(value.message_template_name) ?? '', language: str(value.message_template_language) ?? '', at };
      if (c?.field === 'message_template_status_update') {
        const status = str(value.event);
        if (!status) continue;
        const reason = str(value.reason);
        const info = obj(value.other_info);
        const detail = [reason && reason !== 'NONE' ? reason : null, str(info?.title), str(info?.description)].filter(Boolean).join(': ');
        events.push({ kind: 'template_status', ...common, status: status.toUpperCase(), reason: detail || null });
      } else if (c?.field === 'message_template_quality_update') {
        const quality = str(value.new_quality_score);
        if (quality) events.push({ kind: 'template_quality', ...common, quality: quality.toUpperCase(), previous: str(value.previous_quality_score), at });
      }
    }
  }
  return events;
}

// ---------- WhatsApp ----------

function whatsAppEntry(entry: Json): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const change of arr(entry.changes)) {
    const value = obj(obj(change)?.value);
    const phoneNumberId = str(obj(value?.metadata)?.phone_number_id);
    if (!value || !phoneNumberId) continue;

    const names = new Map<string, string>();
    for (const contact of arr(value.contacts)) {
      const c = obj(contact);
      const waId = str(c?.wa_id);
      const name = str(obj(c?.profile)?.name);
      if (waId && name) names.set(waId, name);
    }
    for (const message of arr(value.messages)) {
      const parsed = whatsAppEvent(obj(message), phoneNumberId, names);
      if (parsed) events.push(parsed);
    }
    for (const status of arr(value.statuses)) {
      const parsed = whatsAppStatus(obj(status), phoneNumberId);
      if (parsed) events.push(parsed);
    }
    // Field user_preferences: a user stopped (or resumed) the business's marketing messages.
    for (const preference of arr(value.user_preferences)) {
      const p = obj(preference);
      const customerId = str(p?.wa_id);
      const category = str(p?.category);
      const choice = str(p?.value);
      if (!p || !customerId || !category || !choice) continue;
      events.push({
        kind: 'user_preference',
        platform: 'whatsapp',
        channelExternalId: phoneNumberId,
        customerId,
        category,
        value: choice.toLowerCase(),
        detail: str(p.detail),
        timestamp: isoFrom(p.timestamp, 'seconds'),
      });
    }
  }
  return events;
}

const WHATSAPP_MEDIA = ['image', 'video', 'audio', 'document', 'sticker'] as const;

interface MessageBody {
  type: MessageType;
  text: string | null;
  mediaId?: string | null;
  mediaType?: string | null;
  data?: Json | null;
}

function whatsAppBody(message: Json): MessageBody | null {
  const type = str(message.type);
  if (type === 'text') {
    const body = str(obj(message.text)?.body);
    return body === null ? null : { type: 'text', text: body };
  }
  if ((WHATSAPP_MEDIA as readonly string[]).includes(type ?? '')) {
    const media = obj(message[type!]);
    const id = str(media?.id);
    if (!media || !id) return null;
    const filename = str(media.filename);
    return {
      // Stickers are webp images.
      type: type === 'sticker' ? 'image' : (type as MessageType),
      text: str(media.caption),
      mediaId: id,
      mediaType: str(media.mime_type) ?? (type === 'sticker' ? 'image/webp' : type),
      data: type === 'sticker' ? { sticker: true, animated: media.animated === true } : filename ? { filename } : null,
    };
  }
  if (type === 'button') {
    // A template's quick-reply button: Meta sends its text and the payload set in the template.
    const button = obj(message.button);
    const text = str(button?.text);
    if (!button || text === null) return null;
    return { type: 'button_reply', text, data: { id: str(button.payload) ?? text, title: text, source: 'template' } };
  }
  if (type === 'interactive') {
    const interactive = obj(message.interactive);
    const kind = str(interactive?.type);
    const reply = obj(kind ? interactive?.[kind] : null);
    const id = str(reply?.id);
    const title = str(reply?.title);
    if ((kind !== 'button_reply' && kind !== 'list_reply') || !reply || id === null || title === null) return null;
    const description = str(reply.description);
    return { type: kind, text: title, data: { id, title, ...(description ? { description } : {}) } };
  }
  if (type === 'location') {
    const location = obj(message.location);
    if (!location || typeof location.latitude !== 'number' || typeof location.longitude !== 'number') return null;
    const label = [str(location.name), str(location.address)].filter(Boolean).join(', ');
    return { type: 'location', text: label || `${location.latitude}, ${location.longitude}`, data: { ...location } };
  }
  if (type === 'contacts') {
    const contacts = arr(message.contacts);
    if (!contacts.length) return null;
    const names = contacts.map((c) => str(obj(obj(c)?.name)?.formatted_name)).filter(Boolean);
    return { type: 'contacts', text: names.join(', ') || null, data: { contacts } };
  }
  if (type === 'order') {
    // A cart sent from the business's catalogue: a readable text, Meta's order kept as received (the console's order card).
    const raw = obj(message.order);
    const order = orderOf({ order: raw });
    if (!raw || !order) return null;
    return { type: 'text', text: orderText(order), data: { order: raw } };
  }
  return null;
}

/** A WhatsApp `messages[]` entry: a reaction, a system line (number change, a message WhatsApp cannot show) or a message. */
function whatsAppEvent(message: Json | null, phoneNumberId: string, names: Map<string, string>): WebhookEvent | null {
  const from = str(message?.from);
  const id = str(message?.id);
  if (!message || !from || !id) return null;
  const type = str(message.type);
  const timestamp = isoFrom(message.timestamp, 'seconds');
  if (type === 'reaction') {
    const reaction = obj(message.reaction);
    const targetId = str(reaction?.message_id);
    if (!reaction || !targetId) return null;
    // A removed reaction comes with an empty (or no) emoji.
    const emoji = str(reaction.emoji) || null;
    return { kind: 'reaction', platform: 'whatsapp', channelExternalId: phoneNumberId, customerId: from, targetId, emoji, timestamp } satisfies ReactionWebhookEvent;
  }
  const system = { kind: 'system', platform: 'whatsapp', channelExternalId: phoneNumberId, customerId: from, customerName: names.get(from) ?? from, messageId: id, timestamp } as const;
  if (type === 'system') {
    const body = obj(message.system);
    // `new_wa_id` today; `wa_id` in older versions of the Cloud API.
    const newId = str(body?.new_wa_id) ?? str(body?.wa_id);
    const kind = str(body?.type);
    if (!body || !newId || (kind !== 'user_changed_number' && kind !== 'customer_changed_number') || newId === from) return null;
    return { ...system, system: 'number_changed', newId, detail: str(body.body) } satisfies SystemWebhookEvent;
  }
  if (type === 'unsupported' || type === 'unknown') {
    // Meta's error 131051 (a message type the Cloud API does not deliver: a poll, a view-once media…).
    const error = obj(arr(message.errors)[0]);
    const detail = [str(error?.code), str(error?.title) ?? str(error?.message)].filter(Boolean).join(' ') || null;
    return { ...system, system: 'unsupported', newId: null, detail } satisfies SystemWebhookEvent;
  }
  return whatsAppMessage(message, phoneNumberId, names);
}

function whatsAppMessage(message: Json | null, phoneNumberId: string, names: Map<string, string>): InboundWebhookMessage | null {
  const from = str(message?.from);
  const id = str(message?.id);
  if (!message || !from || !id) return null;
  const body = whatsAppBody(message);
  if (!body) return null;
  const context = obj(message.context);
  const replyTo = str(context?.id);
  return {
    kind: 'message',
    platform: 'whatsapp',
    channelExternalId: phoneNumberId,
    customerId: from,
    customerName: names.get(from) ?? from,
    messageId: id,
    timestamp: isoFrom(message.timestamp, 'seconds'),
    type: body.type,
    text: body.text,
    mediaId: body.mediaId ?? null,
    mediaUrl: null,
    mediaType: body.mediaType ?? null,
    data: body.data || replyTo ? { ...(body.data ?? {}), ...(replyTo ? { context_message_id: replyTo } : {}) } : null,
  };
}

const WHATSAPP_STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

function whatsAppStatus(status: Json | null, phoneNumberId: string): StatusWebhookEvent | null {
  const id = str(status?.id);
  const value = str(status?.status);
  if (!status || !id || !value || !WHATSAPP_STATUSES.has(value)) return null;
  return {
    kind: 'status',
    platform: 'whatsapp',
    channelExternalId: phoneNumberId,
    messageId: id,
    status: value as StatusWebhookEvent['status'],
    watermark: null,
    recipientId: str(status.recipient_id) ?? '',
    error: value === 'failed' ? whatsAppStatusError(arr(status.errors)) : null,
    timestamp: isoFrom(status.timestamp, 'seconds'),
  };
}

/** "Title: details" of the first error (Meta's error_data.details says what to do). */
function whatsAppStatusError(errors: unknown[]): string {
  const first = obj(errors[0]);
  if (!first) return 'The message could not be delivered.';
  const title = str(first.title) ?? str(first.message);
  const details = str(obj(first.error_data)?.details) ?? (str(first.message) !== title ? str(first.message) : null);
  const code = str(first.code);
  const text = [title, details].filter(Boolean).join(': ') || 'The message could not be delivered.';
  return code ? `${text} (${code})` : text;
}

// ---------- Messenger and Instagram ----------

/** Messenger attachment types → message types; "file" is a document. */
const ATTACHMENT_TYPES: Record<string, MessageType> = { image: 'image', video: 'video', audio: 'audio', file: 'document' };

function messagingEntry(entry: Json, platform: 'messenger' | 'instagram'): WebhookEvent[] {
  const channelExternalId = str(entry.id);
  if (!channelExternalId) return [];
  const events: WebhookEvent[] = [];
  for (const item of arr(entry.messaging)) {
    const event = obj(item);
    const senderId = str(obj(event?.sender)?.id);
    if (!event || !senderId) continue;
    const base = { platform, channelExternalId, customerId: senderId, timestamp: isoFrom(event.timestamp, 'milliseconds') };
    if (obj(event.message)) events.push(...messagingMessage(obj(event.message)!, base));
    else if (obj(event.reaction)) {
      const reaction = messagingReaction(obj(event.reaction)!, base);
      if (reaction) events.push(reaction);
    } else if (obj(event.postback)) {
      const postback = obj(event.postback)!;
      const title = str(postback.title) ?? str(postback.payload);
      if (title === null) continue;
      events.push(
        inbound(base, str(postback.mid) ?? `postback:${senderId}:${str(event.timestamp) ?? ''}`, {
          type: 'button_reply',
          text: title,
          data: { id: str(postback.payload) ?? title, title, source: 'postback' },
        }),
      );
    } else if (obj(event.delivery)) {
      const status = watermarkStatus(base, 'delivered', obj(event.delivery)!);
      if (status) events.push(status);
    } else if (obj(event.read)) {
      const status = watermarkStatus(base, 'read', obj(event.read)!);
      if (status) events.push(status);
    }
  }
  return events;
}

type MessagingBase = { platform: 'messenger' | 'instagram'; channelExternalId: string; customerId: string; timestamp: string };

function inbound(base: MessagingBase, messageId: string, body: MessageBody & { mediaUrl?: string | null }): InboundWebhookMessage {
  return {
    kind: 'message',
    ...base,
    // Messenger webhooks carry no profile name (it needs a separate, permissioned call).
    customerName: base.customerId,
    messageId,
    type: body.type,
    text: body.text,
    mediaId: null,
    mediaUrl: body.mediaUrl ?? null,
    mediaType: body.mediaType ?? null,
    data: body.data ?? null,
  };
}

/** Messenger's reaction words, for a reaction delivered without its emoji. */
const REACTION_EMOJI: Record<string, string> = { smile: '😆', angry: '😠', sad: '😢', wow: '😮', love: '❤️', like: '👍', dislike: '👎' };

/** Field message_reactions: `{mid, action: react|unreact, reaction, emoji}`. */
function messagingReaction(reaction: Json, base: MessagingBase): ReactionWebhookEvent | null {
  const targetId = str(reaction.mid);
  if (!targetId) return null;
  const action = str(reaction.action);
  const emoji = action === 'unreact' ? null : str(reaction.emoji) || REACTION_EMOJI[str(reaction.reaction) ?? ''] || null;
  if (action !== 'unreact' && !emoji) return null;
  return { kind: 'reaction', platform: base.platform, channelExternalId: base.channelExternalId, customerId: base.customerId, targetId, emoji, timestamp: base.timestamp };
}

function messagingMessage(message: Json, base: MessagingBase): WebhookEvent[] {
  // Echoes are the page's own sends (ours or from the Page inbox); deleted ones carry nothing.
  if (message.is_echo === true || message.is_deleted === true) return [];
  const mid = str(message.mid);
  if (!mid) return [];
  // Instagram: a message its API does not deliver (a voice note in some markets, a shared reel…).
  if (message.is_unsupported === true) {
    return [{ kind: 'system', ...base, customerName: base.customerId, messageId: mid, system: 'unsupported', newId: null, detail: null } satisfies SystemWebhookEvent];
  }
  const text = str(message.text);
  const quickReply = obj(message.quick_reply);
  if (quickReply && text !== null) {
    return [inbound(base, mid, { type: 'button_reply', text, data: { id: str(quickReply.payload) ?? text, title: text, source: 'quick_reply' } })];
  }
  const media: InboundWebhookMessage[] = [];
  arr(message.attachments).forEach((attachment) => {
    const a = obj(attachment);
    const type = ATTACHMENT_TYPES[str(a?.type) ?? ''];
    const url = str(obj(a?.payload)?.url);
    if (!type || !url) return;
    // Several attachments share one mid: the first keeps it, the others get an index so each is stored once.
    const id = media.length === 0 ? mid : `${mid}#${media.length}`;
    media.push(inbound(base, id, { type, text: media.length === 0 ? text : null, mediaUrl: url, mediaType: type }));
  });
  if (media.length) return media;
  return text !== null ? [inbound(base, mid, { type: 'text', text })] : [];
}

/** Messenger's delivery/read watermark (everything sent before it), or Instagram's read receipt of one mid. */
function watermarkStatus(base: MessagingBase, status: 'delivered' | 'read', receipt: Json): StatusWebhookEvent | null {
  const watermark = receipt.watermark !== undefined ? isoFrom(receipt.watermark, 'milliseconds') : null;
  const mid = str(receipt.mid);
  if (!watermark && !mid) return null;
  return {
    kind: 'status',
    platform: base.platform,
    channelExternalId: base.channelExternalId,
    messageId: watermark ? null : mid,
    status,
    watermark,
    recipientId: base.customerId,
    error: null,
    timestamp: base.timestamp,
  };
}
