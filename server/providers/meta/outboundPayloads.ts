/**
 * OutboundContent → the JSON Meta expects: the WhatsApp Cloud API's message object and the
 * Messenger/Instagram Send API's. Limits are checked here, before any call, so an agent gets a
 * clear message instead of Meta's generic "(#100) Invalid parameter" — and so a message that can
 * never be sent is not retried.
 */
import type { OutboundContent } from './types';

/** The content cannot be sent as is (too many buttons, a title too long, a template on Messenger…). Never retryable. */
export class OutboundContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundContentError';
  }
}

/** WhatsApp Cloud API limits (developers.facebook.com/docs/whatsapp/cloud-api/reference/messages). */
export const WHATSAPP_LIMITS = {
  textBody: 4096,
  interactiveBody: 1024,
  headerText: 60,
  footerText: 60,
  replyButtons: 3,
  buttonTitle: 20,
  /** A reply button's id: 256 characters; a list row's: 200 (Meta's Messages API reference). */
  buttonId: 256,
  rowId: 200,
  listButtonText: 20,
  listSections: 10,
  listRows: 10,
  rowTitle: 24,
  rowDescription: 72,
  sectionTitle: 24,
} as const;

/** Instagram's Send API (Messenger Platform, Facebook Login): text of at most 1000 bytes of UTF-8; otherwise Messenger's. */
export const INSTAGRAM_LIMITS = {
  textBytes: 1000,
} as const;

/** Messenger Send API limits (button template, quick replies). */
export const MESSENGER_LIMITS = {
  text: 2000,
  buttonTemplateText: 640,
  buttons: 3,
  buttonTitle: 20,
  quickReplies: 13,
  quickReplyTitle: 20,
  payload: 1000,
} as const;

function check(condition: boolean, message: string): void {
  if (!condition) throw new OutboundContentError(message);
}

function checkText(value: string, max: number, what: string): void {
  check(value.trim().length > 0, `${what} cannot be empty.`);
  check(value.length <= max, `${what} is too long (${value.length} characters, at most ${max}).`);
}

function checkOptionalText(value: string | undefined, max: number, what: string): void {
  if (value !== undefined && value !== '') checkText(value, max, what);
}

function checkUniqueIds(ids: string[], what: string): void {
  check(new Set(ids).size === ids.length, `Each ${what} needs a different id.`);
}

/** WhatsApp's media types that carry a caption, and the one that carries a file name. */
const CAPTIONED = new Set(['image', 'video', 'document']);

function whatsAppInteractiveFrame(content: { body: string; header?: string; footer?: string }): Record<string, unknown> {
  checkText(content.body, WHATSAPP_LIMITS.interactiveBody, 'The message text');
  checkOptionalText(content.header, WHATSAPP_LIMITS.headerText, 'The header');
  checkOptionalText(content.footer, WHATSAPP_LIMITS.footerText, 'The footer');
  return {
    ...(content.header ? { header: { type: 'text', text: content.header } } : {}),
    body: { text: content.body },
    ...(content.footer ? { footer: { text: content.footer } } : {}),
  };
}

/** The type-specific part of a WhatsApp message: `{ type, [type]: {...} }`. */
function whatsAppContent(content: OutboundContent): Record<string, unknown> {
  switch (content.kind) {
    case 'text':
      checkText(content.text, WHATSAPP_LIMITS.textBody, 'The message');
      return { type: 'text', text: { body: content.text, preview_url: content.previewUrl ?? false } };

    case 'media': {
      check(/^https?:\/\//i.test(content.link), 'The media link must be an http(s) URL.');
      const media: Record<string, string> = { link: content.link };
      if (content.caption && CAPTIONED.has(content.mediaType)) media.caption = content.caption;
      if (content.filename && content.mediaType === 'document') media.filename = content.filename;
      return { type: content.mediaType, [content.mediaType]: media };
    }

    case 'buttons': {
      check(content.buttons.length >= 1, 'Add at least one button.');
      check(content.buttons.length <= WHATSAPP_LIMITS.replyButtons, `WhatsApp allows at most ${WHATSAPP_LIMITS.replyButtons} buttons.`);
      for (const button of content.buttons) {
        checkText(button.title, WHATSAPP_LIMITS.buttonTitle, `The button title "${button.title}"`);
        checkText(button.id, WHATSAPP_LIMITS.buttonId, 'A button id');
      }
      checkUniqueIds(
        content.buttons.map((b) => b.id),
        'button',
      );
      return {
        type: 'interactive',
        interactive: {
          type: 'button',
          ...whatsAppInteractiveFrame(content),
          action: { buttons: content.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) },
        },
      };
    }

    case 'list': {
      const rows = content.sections.flatMap((s) => s.rows);
      checkText(content.buttonText, WHATSAPP_LIMITS.listButtonText, 'The list button text');
      check(content.sections.length >= 1 && rows.length >= 1, 'Add at least one row to the list.');
      check(content.sections.length <= WHATSAPP_LIMITS.listSections, `WhatsApp allows at most ${WHATSAPP_LIMITS.listSections} list sections.`);
      check(rows.length <= WHATSAPP_LIMITS.listRows, `WhatsApp allows at most ${WHATSAPP_LIMITS.listRows} rows in a list (${rows.length} given).`);
      for (const section of content.sections) {
        // A section title is only required when there are several sections.
        if (content.sections.length > 1 || section.title) checkText(section.title, WHATSAPP_LIMITS.sectionTitle, 'A section title');
      }
      for (const row of rows) {
        checkText(row.title, WHATSAPP_LIMITS.rowTitle, `The row title "${row.title}"`);
        checkText(row.id, WHATSAPP_LIMITS.rowId, 'A row id');
        checkOptionalText(row.description, WHATSAPP_LIMITS.rowDescription, `The description of "${row.title}"`);
      }
      checkUniqueIds(
        rows.map((r) => r.id),
        'row',
      );
      return {
        type: 'interactive',
        interactive: {
          type: 'list',
          ...whatsAppInteractiveFrame(content),
          action: {
            button: content.buttonText,
            sections: content.sections.map((s) => ({
              ...(s.title ? { title: s.title } : {}),
              rows: s.rows.map((r) => ({ id: r.id, title: r.title, ...(r.description ? { description: r.description } : {}) })),
            })),
          },
        },
      };
    }

    case 'template': {
      check(/^[a-z0-9_]{1,512}$/.test(content.name), `"${content.name}" is not a valid template name.`);
      check(content.language.trim().length > 0, 'The template language is required.');
      const parameters = content.bodyParameters.map((text) => {
        checkText(text, 32768, 'A template parameter');
        return { type: 'text', text };
      });
      const media = (type: string, link: string) => {
        check(/^https?:\/\//i.test(link), `"${link}" is not a link Meta can fetch.`);
        return { type, [type]: { link } };
      };
      const components: Record<string, unknown>[] = [];
      if (content.header) {
        const header = content.header;
        components.push({ type: 'header', parameters: [header.type === 'text' ? { type: 'text', text: header.text } : media(header.type, header.link)] });
      }
      if (parameters.length) components.push({ type: 'body', parameters });
      for (const button of content.buttons ?? []) {
        checkText(button.value, button.subType === 'url' ? 2000 : 15, button.subType === 'url' ? 'The link ending' : 'The offer code');
        components.push({
          type: 'button',
          sub_type: button.subType,
          index: String(button.index),
          parameters: [button.subType === 'url' ? { type: 'text', text: button.value } : { type: 'coupon_code', coupon_code: button.value }],
        });
      }
      if (content.cards) {
        components.push({
          type: 'carousel',
          cards: content.cards.map((card, index) => ({
            card_index: index,
            components: [
              { type: 'header', parameters: [media(card.type, card.link)] },
              ...(card.bodyParameters.length ? [{ type: 'body', parameters: card.bodyParameters.map((text) => ({ type: 'text', text })) }] : []),
            ],
          })),
        });
      }
      return {
        type: 'template',
        template: {
          name: content.name,
          language: { code: content.language },
          ...(components.length ? { components } : {}),
        },
      };
    }
  }
}

/** The body of POST /{phone-number-id}/messages. */
export function whatsAppMessagePayload(to: string, content: OutboundContent): Record<string, unknown> {
  // wa_ids are digits; a number typed as "+1 (555) 010-1234" is accepted in the same form.
  const digits = to.replace(/[\s()+-]/g, '');
  check(/^\d{5,20}$/.test(digits), `"${to}" is not a WhatsApp number.`);
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: digits, ...whatsAppContent(content) };
}

/** Messenger's attachment types; a document is a "file" there. */
const MESSENGER_ATTACHMENT_TYPE = { image: 'image', video: 'video', audio: 'audio', document: 'file' } as const;

/** Instagram counts its text limit in UTF-8 bytes, not characters. */
function checkInstagramText(value: string, platform: 'messenger' | 'instagram', what: string): void {
  if (platform !== 'instagram') return;
  const bytes = Buffer.byteLength(value, 'utf8');
  check(bytes <= INSTAGRAM_LIMITS.textBytes, `${what} is too long for Instagram (${bytes} bytes, at most ${INSTAGRAM_LIMITS.textBytes}).`);
}

/** The `message` object of the Send API. */
function messengerMessage(content: OutboundContent, platform: 'messenger' | 'instagram'): Record<string, unknown> {
  switch (content.kind) {
    case 'text':
      checkText(content.text, MESSENGER_LIMITS.text, 'The message');
      checkInstagramText(content.text, platform, 'The message');
      return { text: content.text };

    case 'media':
      check(/^https?:\/\//i.test(content.link), 'The media link must be an http(s) URL.');
      // Instagram's Send API lists image, video and audio attachments only (no "file"): refused here, before
      // any call, with words an agent can act on (issue #25).
      check(platform !== 'instagram' || content.mediaType !== 'document', 'Instagram does not accept documents: send an image, a video or an audio file, or paste a link to the document in a message.');
      // Messenger attachments carry no caption or file name: the link alone is sent.
      return { attachment: { type: MESSENGER_ATTACHMENT_TYPE[content.mediaType], payload: { url: content.link, is_reusable: true } } };

    case 'buttons': {
      // The button template has no header or footer: they frame the text instead.
      const text = [content.header, content.body, content.footer].filter(Boolean).join('\n\n');
      checkText(text, MESSENGER_LIMITS.buttonTemplateText, 'The message text');
      check(content.buttons.length >= 1, 'Add at least one button.');
      check(content.buttons.length <= MESSENGER_LIMITS.buttons, `Messenger allows at most ${MESSENGER_LIMITS.buttons} buttons.`);
      for (const button of content.buttons) {
        checkText(button.title, MESSENGER_LIMITS.buttonTitle, `The button title "${button.title}"`);
        checkText(button.id, MESSENGER_LIMITS.payload, 'A button id');
      }
      return {
        attachment: {
          type: 'template',
          payload: { template_type: 'button', text, buttons: content.buttons.map((b) => ({ type: 'postback', title: b.title, payload: b.id })) },
        },
      };
    }

    case 'list': {
      // Messenger has no list message: the rows become quick replies under the text.
      const rows = content.sections.flatMap((s) => s.rows);
      const text = [content.header, content.body, content.footer].filter(Boolean).join('\n\n');
      checkText(text, MESSENGER_LIMITS.text, 'The message text');
      checkInstagramText(text, platform, 'The message text');
      check(rows.length >= 1, 'Add at least one row to the list.');
      check(rows.length <= MESSENGER_LIMITS.quickReplies, `Messenger allows at most ${MESSENGER_LIMITS.quickReplies} quick replies (${rows.length} given).`);
      for (const row of rows) {
        checkText(row.title, MESSENGER_LIMITS.quickReplyTitle, `The quick reply "${row.title}"`);
        checkText(row.id, MESSENGER_LIMITS.payload, 'A row id');
      }
      return { text, quick_replies: rows.map((r) => ({ content_type: 'text', title: r.title, payload: r.id })) };
    }

    case 'template':
      throw new OutboundContentError('WhatsApp message templates cannot be sent on Messenger or Instagram.');
  }
}

/** The body of POST /{page-id}/messages: a reply within the conversation (messaging_type RESPONSE). */
export function messengerMessagePayload(recipientId: string, content: OutboundContent, platform: 'messenger' | 'instagram' = 'messenger'): Record<string, unknown> {
  check(recipientId.trim().length > 0, 'The recipient is required.');
  return { recipient: { id: recipientId }, messaging_type: 'RESPONSE', message: messengerMessage(content, platform) };
}
