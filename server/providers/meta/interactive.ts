/**
 * A message offering choices (a bot step's options, stored as `type: 'interactive'` with
 * `data.buttons: [{id, title}]`, the shape the inbox and the simulator read) → the channel's native
 * form: WhatsApp reply buttons up to 3 and a list beyond (up to 10 rows); Messenger and Instagram
 * quick replies (up to 13). Titles longer than the channel allows are shortened with an ellipsis
 * (the reply carries the id, so matching does not depend on the title); ids are kept.
 */
import { INSTAGRAM_LIMITS, MESSENGER_LIMITS, WHATSAPP_LIMITS } from './outboundPayloads';
import type { OutboundContent } from './types';

export interface ChoiceButton {
  id: string;
  title: string;
}

/** The list's button on WhatsApp (at most 20 characters). */
export const LIST_BUTTON_TEXT = 'Options';

export function shorten(text: string, max: number): string {
  const clean = text.trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

/** `shorten` to a number of UTF-8 bytes (Instagram's text limit), never cutting a character in two. */
export function shortenBytes(text: string, maxBytes: number): string {
  const clean = text.trim();
  if (Buffer.byteLength(clean, 'utf8') <= maxBytes) return clean;
  const budget = maxBytes - Buffer.byteLength('…', 'utf8');
  let out = '';
  let used = 0;
  for (const char of clean) {
    const size = Buffer.byteLength(char, 'utf8');
    if (used + size > budget) break;
    out += char;
    used += size;
  }
  return `${out.trimEnd()}…`;
}

/** The buttons a stored message offers (data.buttons), or null when it offers none. */
export function offeredChoices(data: Record<string, unknown> | null | undefined): ChoiceButton[] | null {
  const buttons = data?.buttons;
  if (!Array.isArray(buttons)) return null;
  const valid = buttons.filter(
    (b): b is ChoiceButton => !!b && typeof b === 'object' && typeof (b as ChoiceButton).id === 'string' && typeof (b as ChoiceButton).title === 'string',
  );
  return valid.length > 0 ? valid : null;
}

/** What a message with choices becomes on a Meta channel. */
export function choicesContent(platform: 'whatsapp' | 'messenger' | 'instagram', body: string, buttons: ChoiceButton[]): OutboundContent {
  if (platform === 'whatsapp') {
    const text = shorten(body, WHATSAPP_LIMITS.interactiveBody);
    if (buttons.length <= WHATSAPP_LIMITS.replyButtons) {
      return { kind: 'buttons', body: text, buttons: buttons.map((b) => ({ id: b.id, title: shorten(b.title, WHATSAPP_LIMITS.buttonTitle) })) };
    }
    return {
      kind: 'list',
      body: text,
      buttonText: LIST_BUTTON_TEXT,
      sections: [{ title: '', rows: buttons.slice(0, WHATSAPP_LIMITS.listRows).map((b) => ({ id: b.id, title: shorten(b.title, WHATSAPP_LIMITS.rowTitle) })) }],
    };
  }
  // Messenger and Instagram: quick replies under the text (the Send API's 'list' form here).
  return {
    kind: 'list',
    body: platform === 'instagram' ? shortenBytes(shorten(body, MESSENGER_LIMITS.text), INSTAGRAM_LIMITS.textBytes) : shorten(body, MESSENGER_LIMITS.text),
    buttonText: LIST_BUTTON_TEXT,
    sections: [{ title: '', rows: buttons.slice(0, MESSENGER_LIMITS.quickReplies).map((b) => ({ id: b.id, title: shorten(b.title, MESSENGER_LIMITS.quickReplyTitle) })) }],
  };
}

/** The choices content of a stored message on a Meta platform, or null when the message offers no choices. */
export function choicesContentOf(platform: string, message: { type: string; text: string | null; data: Record<string, unknown> | null }): OutboundContent | null {
  if (message.type !== 'interactive' || (platform !== 'whatsapp' && platform !== 'messenger' && platform !== 'instagram')) return null;
  const buttons = offeredChoices(message.data);
  if (!buttons || !message.text?.trim()) return null;
  return choicesContent(platform, message.text, buttons);
}
