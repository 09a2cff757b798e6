/**
 * The fake's control API ({prefix}/control/…, JSON) for tests and the demo page: customers write
 * in (a signed webhook is posted), react to messages, send orders, change their number or send
 * something the API cannot deliver; sent messages get read or fail, the next sends fail on demand;
 * and the dialog endpoints ({prefix}/dialog/…) the SDK doubles call when the user clicks Continue.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FakeMetaContext } from './fakeMetaContext';
import { fakeMid, fakeWamid, type FakeMessage } from './fakeMetaStore';
import { messagingPayload, whatsAppInboundPayload, whatsAppMessagesPayload, whatsAppUserPreferencePayload } from './fakeMetaWebhooks';
import { TEMPLATE_QUALITY_SCORES, TEMPLATE_STATUSES } from '../../../../contract/templates';
import { templateQualityPayload, templateStatusPayload } from './fakeMetaTemplates';
import { placeholderMedia } from './placeholderMedia';

const TemplateQualityBody = z.object({ template_id: z.string().min(1), quality: z.enum(TEMPLATE_QUALITY_SCORES) });
const TemplateStatusBody = z.object({ template_id: z.string().min(1), status: z.enum(TEMPLATE_STATUSES), reason: z.string().max(200).default('NONE') });

const WhatsAppInbound = z.object({
  phone_number_id: z.string().min(1),
  from: z.string().regex(/^\+?\d{5,20}$/, 'from must be a phone number in digits'),
  name: z.string().trim().min(1).max(200).optional(),
  type: z.enum(['text', 'button', 'interactive', 'location', 'contacts', 'image', 'video', 'audio', 'document', 'sticker']).default('text'),
  /** The text; a template button's text; a media caption. */
  text: z.string().max(4096).optional(),
  /** A template button's payload. */
  payload: z.string().max(1000).optional(),
  interactive_type: z.enum(['button_reply', 'list_reply']).default('button_reply'),
  reply: z.object({ id: z.string().min(1), title: z.string().min(1), description: z.string().optional() }).optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  location_name: z.string().optional(),
  address: z.string().optional(),
  mime_type: z.string().optional(),
  filename: z.string().optional(),
  /** The media's bytes; a small placeholder file of the type when absent. */
  data_base64: z.string().max(8_000_000).optional(),
  contacts: z.array(z.record(z.string(), z.unknown())).optional(),
  /** The business message this one replies to (a wamid). */
  context_message_id: z.string().optional(),
});

const MessagingInbound = z
  .object({
    page_id: z.string().min(1).optional(),
    ig_id: z.string().min(1).optional(),
    sender_id: z.string().regex(/^\d{5,32}$/).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    text: z.string().max(2000).optional(),
    quick_reply_payload: z.string().max(1000).optional(),
    postback: z.object({ title: z.string().min(1), payload: z.string().min(1) }).optional(),
    attachment: z.object({ type: z.enum(['image', 'video', 'audio', 'file']), url: z.string().url() }).optional(),
  })
  .refine((b) => b.page_id || b.ig_id, { message: 'page_id or ig_id is required' })
  .refine((b) => b.text || b.postback || b.attachment, { message: 'text, postback or attachment is required' });

const UserPreferenceBody = z.object({ phone_number_id: z.string().min(1), from: z.string().regex(/^\+?\d{6,15}$/), value: z.enum(['stop', 'resume']) });

const WaNumber = z.string().regex(/^\+?\d{5,20}$/, 'must be a phone number in digits');

const HistoryBody = z.object({
  phone_number_id: z.string().min(1),
  messages: z
    .array(
      z.object({
        id: z.string().min(1).max(200),
        to: WaNumber,
        payload: z.record(z.string(), z.unknown()),
        summary: z.string().max(4096),
        created_at: z.string().datetime(),
        statuses: z.array(z.object({ status: z.enum(['sent', 'delivered', 'read', 'failed']), at: z.string().datetime(), error_code: z.number().int().optional() })).max(10),
      }),
    )
    .max(1000),
});

/** The customer reacts to a message of the conversation (ours or theirs); no emoji (or "") removes their reaction. */
const ReactionBody = z.object({ message_id: z.string().min(1), emoji: z.string().max(16).default('') });

const OrderBody = z.object({
  phone_number_id: z.string().min(1),
  from: WaNumber,
  name: z.string().trim().min(1).max(200).optional(),
  catalog_id: z.string().min(1).default('CATALOG_1'),
  /** The text the customer sends with the cart. */
  text: z.string().max(1000).optional(),
  items: z
    .array(z.object({ product_retailer_id: z.string().min(1), quantity: z.number().int().min(1), item_price: z.number().min(0), currency: z.string().regex(/^[A-Z]{3}$/) }))
    .min(1)
    .max(30)
    .default([
      { product_retailer_id: 'SKU-1', quantity: 2, item_price: 12.5, currency: 'EUR' },
      { product_retailer_id: 'SKU-2', quantity: 1, item_price: 5, currency: 'EUR' },
    ]),
});

const NumberChangeBody = z.object({ phone_number_id: z.string().min(1), from: WaNumber, new_number: WaNumber, name: z.string().trim().min(1).max(200).optional() });

const UnsupportedBody = z.object({ phone_number_id: z.string().min(1), from: WaNumber, name: z.string().trim().min(1).max(200).optional() });

const StatusBody = z.object({
  message_id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  error_code: z.number().int().optional(),
});

const FailNextBody = z.object({
  count: z.number().int().min(1).max(100).default(1),
  code: z.number().int().default(130429),
  http_status: z.number().int().min(400).max(599).default(400),
  subcode: z.number().int().optional(),
  message: z.string().optional(),
});

const EmbeddedSignupBody = z.object({
  business_name: z.string().trim().max(200).optional(),
  phone_number: z.string().trim().max(40).optional(),
});

const LoginBody = z.object({
  email: z.string().trim().email(),
  first_name: z.string().trim().max(100).default(''),
  last_name: z.string().trim().max(100).default(''),
  scopes: z.union([z.string(), z.array(z.string())]).default([]),
  /** Tests: a token issued to another app, or one that expires. */
  app_id: z.string().optional(),
  expires_in: z.number().int().optional(),
});

function parse<T extends z.ZodType>(schema: T, body: unknown, reply: FastifyReply): z.infer<T> | null {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  void reply.code(400).send({ error: result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') });
  return null;
}

function customerName(name: string | undefined, id: string): string {
  return name ?? `Customer ${id.slice(-4)}`;
}

export function fakeMetaControlRoutes(app: FastifyInstance, ctx: FakeMetaContext): void {
  const { store } = ctx;

  /** A WhatsApp customer's message object (webhook `messages[]`), with the summary the demo page shows. */
  function whatsAppMessageOf(body: z.infer<typeof WhatsAppInbound>, phoneNumberId: string): { message: Record<string, unknown>; summary: string; mediaId?: string } {
    const waId = body.from.replace(/^\+/, '');
    const context = body.context_message_id ? { context: { from: waId, id: body.context_message_id } } : {};
    const id = fakeWamid(waId);
    switch (body.type) {
      case 'text':
        return { message: { id, type: 'text', text: { body: body.text ?? '' }, ...context }, summary: body.text ?? '' };
      case 'button': {
        const text = body.text ?? 'Yes';
        return { message: { id, type: 'button', button: { text, payload: body.payload ?? text }, ...context }, summary: `[button] ${text}` };
      }
      case 'interactive': {
        const reply = body.reply ?? { id: 'reply-1', title: body.text ?? 'Yes' };
        return { message: { id, type: 'interactive', interactive: { type: body.interactive_type, [body.interactive_type]: reply }, ...context }, summary: `[${body.interactive_type}] ${reply.title}` };
      }
      case 'location': {
        const location = {
          latitude: body.latitude ?? 48.8584,
          longitude: body.longitude ?? 2.2945,
          ...(body.location_name ? { name: body.location_name } : {}),
          ...(body.address ? { address: body.address } : {}),
        };
        return { message: { id, type: 'location', location, ...context }, summary: `[location] ${location.latitude}, ${location.longitude}` };
      }
      case 'contacts': {
        const contacts = body.contacts ?? [{ name: { formatted_name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe' }, phones: [{ phone: '+1 555 0100', type: 'CELL' }] }];
        return { message: { id, type: 'contacts', contacts, ...context }, summary: '[contacts]' };
      }
      default: {
        const placeholder = placeholderMedia(body.type);
        const bytes = body.data_base64 ? Buffer.from(body.data_base64, 'base64') : placeholder.bytes;
        const media = store.addMedia(phoneNumberId, bytes, body.mime_type ?? placeholder.mimeType);
        const object: Record<string, unknown> = { id: media.id, mime_type: media.mimeType, sha256: media.sha256 };
        if (body.text && body.type !== 'audio' && body.type !== 'sticker') object.caption = body.text;
        if (body.type === 'document') object.filename = body.filename ?? 'document.pdf';
        if (body.type === 'sticker') object.animated = false;
        return { message: { id, type: body.type, [body.type]: object, ...context }, summary: `[${body.type}] ${body.text ?? ''}`.trim(), mediaId: media.id };
      }
    }
  }

  app.post('/control/inbound', async (request, reply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    if (raw.phone_number_id !== undefined) {
      const body = parse(WhatsAppInbound, raw, reply);
      if (!body) return reply;
      const phone = store.phone(body.phone_number_id);
      if (!phone) return reply.code(404).send({ error: `Unknown phone_number_id ${body.phone_number_id}.` });
      const waId = body.from.replace(/^\+/, '');
      const name = customerName(body.name, waId);
      const { message, summary, mediaId } = whatsAppMessageOf(body, phone.id);
      const full = { from: waId, timestamp: String(Math.floor(Date.now() / 1000)), ...message };
      store.recordInbound({ id: String(message.id), platform: 'whatsapp', channel_id: phone.id, customer_id: waId, payload: full, summary }, name);
      const result = await ctx.webhook(whatsAppInboundPayload(phone, { waId, name }, message));
      return { message_id: message.id, ...(mediaId ? { media_id: mediaId } : {}), webhook_status: result.status, webhook_error: result.error };
    }

    const body = parse(MessagingInbound, raw, reply);
    if (!body) return reply;
    const channelId = (body.ig_id ?? body.page_id)!;
    const found = store.pageOfChannel(channelId);
    if (!found || (body.ig_id && found.platform !== 'instagram') || (body.page_id && !body.ig_id && found.platform !== 'messenger')) {
      return reply.code(404).send({ error: `Unknown ${body.ig_id ? 'ig_id' : 'page_id'} ${channelId}.` });
    }
    const senderId = body.sender_id ?? String(randomInt(1e15, 9e15));
    const mid = fakeMid();
    let event: Record<string, unknown>;
    let summary: string;
    if (body.postback) {
      event = { postback: { mid, title: body.postback.title, payload: body.postback.payload } };
      summary = `[postback] ${body.postback.title}`;
    } else if (body.attachment) {
      event = { message: { mid, attachments: [{ type: body.attachment.type, payload: { url: body.attachment.url } }] } };
      summary = `[${body.attachment.type}] ${body.attachment.url}`;
    } else {
      event = { message: { mid, text: body.text, ...(body.quick_reply_payload ? { quick_reply: { payload: body.quick_reply_payload } } : {}) } };
      summary = body.text!;
    }
    const payload = messagingPayload(found.platform, channelId, { sender: { id: senderId }, ...event });
    store.recordInbound({ id: mid, platform: found.platform, channel_id: channelId, customer_id: senderId, payload: event, summary }, customerName(body.name, senderId));
    const result = await ctx.webhook(payload);
    return { message_id: mid, sender_id: senderId, webhook_status: result.status, webhook_error: result.error };
  });

  // The customer turns the business's marketing messages off (stop) or on again (resume) in WhatsApp.
  app.post('/control/user_preference', async (request, reply) => {
    const body = parse(UserPreferenceBody, request.body, reply);
    if (!body) return reply;
    const phone = store.phone(body.phone_number_id);
    if (!phone) return reply.code(404).send({ error: `Unknown phone_number_id ${body.phone_number_id}.` });
    const waId = body.from.replace(/^\+/, '');
    const result = await ctx.webhook(whatsAppUserPreferencePayload(phone, { waId, name: customerName(undefined, waId) }, body.value));
    return { webhook_status: result.status, webhook_error: result.error };
  });

  // ---------- issue #25: reactions, orders, number changes, unsupported messages (Meta's published formats) ----------

  // The customer reacts to a message of their conversation (WhatsApp `type: reaction`, Messenger/Instagram `message_reactions`).
  app.post('/control/reaction', async (request, reply) => {
    const body = parse(ReactionBody, request.body, reply);
    if (!body) return reply;
    const target = store.message(body.message_id);
    if (!target) return reply.code(404).send({ error: `No message ${body.message_id}.` });
    const emoji = body.emoji.trim();
    let payload: Record<string, unknown>;
    if (target.platform === 'whatsapp') {
      const phone = store.phone(target.channel_id);
      if (!phone) return reply.code(404).send({ error: `Unknown phone_number_id ${target.channel_id}.` });
      // A removed reaction comes with an empty emoji.
      payload = whatsAppMessagesPayload(phone, { waId: target.customer_id, name: store.customer(phone.id, target.customer_id)?.name ?? null }, {
        id: fakeWamid(target.customer_id),
        type: 'reaction',
        reaction: { message_id: target.id, emoji },
      });
    } else {
      payload = messagingPayload(target.platform as 'messenger' | 'instagram', target.channel_id, {
        sender: { id: target.customer_id },
        reaction: emoji ? { mid: target.id, action: 'react', reaction: 'other', emoji } : { mid: target.id, action: 'unreact' },
      });
    }
    const result = await ctx.webhook(payload);
    return { message_id: target.id, emoji: emoji || null, webhook_status: result.status, webhook_error: result.error };
  });

  // The customer sends a cart from the business's catalogue (WhatsApp `type: order`).
  app.post('/control/order', async (request, reply) => {
    const body = parse(OrderBody, request.body, reply);
    if (!body) return reply;
    const phone = store.phone(body.phone_number_id);
    if (!phone) return reply.code(404).send({ error: `Unknown phone_number_id ${body.phone_number_id}.` });
    const waId = body.from.replace(/^\+/, '');
    const name = body.name ?? store.customer(phone.id, waId)?.name ?? customerName(undefined, waId);
    const order = { catalog_id: body.catalog_id, ...(body.text ? { text: body.text } : {}), product_items: body.items };
    const message = { id: fakeWamid(waId), type: 'order', order };
    const summary = `[order] ${body.items.map((i) => `${i.quantity} × ${i.product_retailer_id}`).join(', ')}`;
    store.recordInbound({ id: message.id, platform: 'whatsapp', channel_id: phone.id, customer_id: waId, payload: { from: waId, ...message }, summary }, name);
    const result = await ctx.webhook(whatsAppMessagesPayload(phone, { waId, name }, message));
    return { message_id: message.id, webhook_status: result.status, webhook_error: result.error };
  });

  // The customer changed their phone number in WhatsApp (a `system` message, `user_changed_number`, from the old number).
  app.post('/control/number_change', async (request, reply) => {
    const body = parse(NumberChangeBody, request.body, reply);
    if (!body) return reply;
    const phone = store.phone(body.phone_number_id);
    if (!phone) return reply.code(404).send({ error: `Unknown phone_number_id ${body.phone_number_id}.` });
    const [from, to] = [body.from.replace(/^\+/, ''), body.new_number.replace(/^\+/, '')];
    if (from === to) return reply.code(400).send({ error: 'new_number must differ from from.' });
    const known = store.customer(phone.id, from);
    const name = body.name ?? known?.name ?? customerName(undefined, from);
    // The conversation (and its customer-service window) follows the customer to the new number.
    if (known) {
      store.data.customers[`${phone.id}:${to}`] = { ...known };
      store.save();
    }
    const id = fakeWamid(from);
    const result = await ctx.webhook(
      whatsAppMessagesPayload(phone, { waId: from, name: null }, { id, type: 'system', system: { body: `User ${name} changed from ${from} to ${to}`, new_wa_id: to, type: 'user_changed_number' } }),
    );
    return { message_id: id, webhook_status: result.status, webhook_error: result.error };
  });

  // The customer sends something the Cloud API does not deliver (a poll, a view-once media…): `type: unsupported`, error 131051.
  app.post('/control/unsupported', async (request, reply) => {
    const body = parse(UnsupportedBody, request.body, reply);
    if (!body) return reply;
    const phone = store.phone(body.phone_number_id);
    if (!phone) return reply.code(404).send({ error: `Unknown phone_number_id ${body.phone_number_id}.` });
    const waId = body.from.replace(/^\+/, '');
    const name = body.name ?? store.customer(phone.id, waId)?.name ?? customerName(undefined, waId);
    const message = {
      id: fakeWamid(waId),
      type: 'unsupported',
      errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } }],
    };
    store.recordInbound({ id: message.id, platform: 'whatsapp', channel_id: phone.id, customer_id: waId, payload: { from: waId, ...message }, summary: '[unsupported]' }, name);
    const result = await ctx.webhook(whatsAppMessagesPayload(phone, { waId, name }, message));
    return { message_id: message.id, webhook_status: result.status, webhook_error: result.error };
  });

  app.post('/control/status', async (request, reply) => {
    const body = parse(StatusBody, request.body, reply);
    if (!body) return reply;
    const message = store.message(body.message_id);
    if (!message || message.direction !== 'outbound') return reply.code(404).send({ error: `No sent message ${body.message_id}.` });
    const result = await ctx.emitStatus(message, body.status, body.status === 'failed' ? (body.error_code ?? 131026) : undefined);
    return { message_id: message.id, status: body.status, webhook_status: result.status, webhook_error: result.error };
  });

  // History the demo writes directly (its finished broadcast): the messages exist here too, as Meta would have them.
  app.post('/control/history', async (request, reply) => {
    const body = parse(HistoryBody, request.body, reply);
    if (!body) return reply;
    if (!store.phone(body.phone_number_id)) return reply.code(404).send({ error: `No phone number ${body.phone_number_id}.` });
    const added = store.importSent(
      body.messages.map((m) => ({
        id: m.id,
        platform: 'whatsapp' as const,
        channel_id: body.phone_number_id,
        customer_id: m.to.replace(/^\+/, ''),
        payload: m.payload,
        summary: m.summary,
        statuses: m.statuses,
        created_at: m.created_at,
      })),
    );
    return { added };
  });

  app.get('/control/sent', async (request) => {
    const { channel_id: channelId, customer_id: customerId } = request.query as Record<string, string | undefined>;
    const sent = store.data.messages.filter(
      (m: FakeMessage) => m.direction === 'outbound' && (!channelId || m.channel_id === channelId) && (!customerId || m.customer_id === customerId),
    );
    return {
      data: sent.map((m) => ({
        id: m.id,
        platform: m.platform,
        channel_id: m.channel_id,
        recipient: m.customer_id,
        payload: m.payload,
        summary: m.summary,
        statuses: m.statuses,
        created_at: m.created_at,
      })),
    };
  });

  // Messages sent per recipient since start (uncapped): how many recipients got one, and who got more.
  app.get('/control/sent_counts', async (request) => {
    const { channel_id: channelId } = request.query as Record<string, string | undefined>;
    let total = 0;
    let recipients = 0;
    const duplicates: { recipient: string; count: number }[] = [];
    for (const [key, count] of store.sendCounts) {
      const [channel, recipient] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      if (channelId && channel !== channelId) continue;
      total += count;
      recipients += 1;
      if (count > 1) duplicates.push({ recipient, count });
    }
    return { total, recipients, duplicates };
  });

  app.post('/control/fail_next', async (request, reply) => {
    const body = parse(FailNextBody, request.body, reply);
    if (!body) return reply;
    store.data.failNext = { count: body.count, code: body.code, httpStatus: body.http_status, subcode: body.subcode, message: body.message };
    store.save();
    return { fail_next: store.data.failNext };
  });

  // A template's quality changes (Meta rates it from customers' reactions): the signed message_template_quality_update.
  app.post('/control/template_quality', async (request, reply) => {
    const body = parse(TemplateQualityBody, request.body, reply);
    if (!body) return reply;
    const found = Object.values(store.data.wabas).flatMap((waba) => waba.templates.map((template) => ({ waba, template }))).find((x) => x.template.id === body.template_id);
    if (!found) return reply.code(404).send({ error: `No template ${body.template_id}.` });
    const previous = found.template.quality_score ?? 'UNKNOWN';
    found.template.quality_score = body.quality;
    store.save();
    const result = await ctx.webhook(templateQualityPayload(found.waba.id, found.template, previous, body.quality));
    return { template_id: found.template.id, quality: body.quality, webhook_status: result.status, webhook_error: result.error };
  });

  // Any status Meta documents (PAUSED, DISABLED, IN_APPEAL…), posted as message_template_status_update.
  app.post('/control/template_status', async (request, reply) => {
    const body = parse(TemplateStatusBody, request.body, reply);
    if (!body) return reply;
    const found = Object.values(store.data.wabas).flatMap((waba) => waba.templates.map((template) => ({ waba, template }))).find((x) => x.template.id === body.template_id);
    if (!found) return reply.code(404).send({ error: `No template ${body.template_id}.` });
    found.template.status = body.status;
    found.template.rejected_reason = body.reason;
    store.save();
    const result = await ctx.webhook(templateStatusPayload(found.waba.id, found.template, body.status, body.reason));
    return { template_id: found.template.id, status: body.status, webhook_status: result.status, webhook_error: result.error };
  });

  app.get('/control/state', async () => store.data);

  app.post('/control/reset', async () => {
    store.reset();
    return { success: true };
  });

  // ---------- the SDK doubles' dialogs ----------

  app.post('/dialog/embedded_signup', async (request, reply) => {
    const body = parse(EmbeddedSignupBody, request.body, reply);
    if (!body) return reply;
    const created = store.createWhatsAppBusiness({ businessName: body.business_name, phoneNumber: body.phone_number });
    return { code: created.code, phone_number_id: created.phoneNumberId, waba_id: created.wabaId };
  });

  app.post('/dialog/login', async (request, reply) => {
    const body = parse(LoginBody, request.body, reply);
    if (!body) return reply;
    const scopes = (typeof body.scopes === 'string' ? body.scopes.split(',') : body.scopes).map((s) => s.trim()).filter(Boolean);
    return store.login({ email: body.email, firstName: body.first_name, lastName: body.last_name, scopes, appId: body.app_id, expiresInSeconds: body.expires_in });
  });
}
