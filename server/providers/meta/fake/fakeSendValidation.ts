/**
 * The fake's checks of a send request, after the real APIs' documented rules and error answers
 * (Cloud API: /docs/whatsapp/cloud-api/reference/messages; Send API: /docs/messenger-platform/reference/send-api),
 * so the adapter is tested against the same refusals production would give.
 */
import { FakeGraphError, invalidParameter, invalidValue, missingParameter } from './fakeGraphError';
import type { FakeTemplate } from './fakeMetaStore';

type Json = Record<string, unknown>;

function obj(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function requireObject(parent: Json, key: string, path: string): Json {
  const value = obj(parent[key]);
  if (!value) throw missingParameter(path);
  return value;
}

function requireText(parent: Json, key: string, path: string, max?: number): string {
  const value = text(parent[key]);
  if (value === null || value === '') throw missingParameter(path);
  if (max !== undefined && value.length > max) throw invalidValue(`${path} length invalid. Min length: 1, Max length: ${max}`);
  return value;
}

const WHATSAPP_TYPES = ['audio', 'contacts', 'document', 'image', 'interactive', 'location', 'reaction', 'sticker', 'template', 'text', 'video'];
const MEDIA_TYPES = new Set(['audio', 'document', 'image', 'sticker', 'video']);

export interface ValidatedWhatsAppSend {
  to: string;
  type: string;
  /** A template may open a conversation; anything else needs the customer-service window. */
  isTemplate: boolean;
  summary: string;
}

function placeholders(template: FakeTemplate): number {
  const body = template.components.find((c) => c.type === 'BODY')?.text ?? '';
  const numbers = [...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  return numbers.length ? Math.max(...numbers) : 0;
}

/** Meta's checks of a media header's parameter and of a carousel's cards (the count is fixed at approval). */
function checkHeaderAndCards(found: FakeTemplate, components: (Json | null)[]): void {
  const mismatch = (details: string) =>
    new FakeGraphError(400, 132012, '(#132012) Parameter format does not match format in the created template', 'OAuthException', undefined, details);
  const format = found.components.find((c) => c.type === 'HEADER')?.format;
  if (format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT') {
    const kind = format.toLowerCase();
    const header = components.find((c) => c?.type === 'header' || c?.type === 'HEADER');
    const parameter = Array.isArray(header?.parameters) ? obj((header!.parameters as unknown[])[0]) : null;
    const media = parameter ? obj(parameter[kind]) : null;
    if (parameter?.type !== kind || typeof media?.link !== 'string' || !media.link) throw mismatch(`header: Format mismatch, expected ${format}, received ${String(parameter?.type ?? 'nothing').toUpperCase()}`);
  }
  const headerText = found.components.find((c) => c.type === 'HEADER' && c.format === 'TEXT')?.text ?? '';
  if (/\{\{\s*1\s*\}\}/.test(headerText)) {
    const header = components.find((c) => c?.type === 'header' || c?.type === 'HEADER');
    const parameter = Array.isArray(header?.parameters) ? obj((header!.parameters as unknown[])[0]) : null;
    if (parameter?.type !== 'text' || typeof parameter.text !== 'string' || !parameter.text) {
      throw new FakeGraphError(400, 132000, '(#132000) Number of parameters does not match the expected number of params', 'OAuthException', undefined, 'header: number of localizable_params (0) does not match the expected number of params (1)');
    }
  }
  const buttons = (found.components as { type: string; buttons?: { type: string; url?: string }[] }[]).find((c) => c.type === 'BUTTONS')?.buttons ?? [];
  buttons.forEach((button, index) => {
    const needs = button.type === 'COPY_CODE' ? 'coupon_code' : button.type === 'URL' && /\{\{\s*1\s*\}\}/.test(button.url ?? '') ? 'text' : null;
    if (!needs) return;
    const sent = components.find((c) => (c?.type === 'button' || c?.type === 'BUTTON') && String(c?.index) === String(index));
    const parameter = Array.isArray(sent?.parameters) ? obj((sent!.parameters as unknown[])[0]) : null;
    if (parameter?.type !== needs || !parameter[needs]) {
      throw new FakeGraphError(400, 131008, '(#131008) Required parameter is missing', 'OAuthException', undefined, `buttons: button at index ${index} of type ${button.type === 'URL' ? 'Url' : 'Copy code'} requires a parameter`);
    }
  });
  const carousel = (found.components as { type: string; cards?: unknown[] }[]).find((c) => c.type === 'CAROUSEL');
  if (carousel) {
    const sent = components.find((c) => c?.type === 'carousel' || c?.type === 'CAROUSEL');
    const cards = Array.isArray(sent?.cards) ? (sent!.cards as unknown[]) : [];
    const expected = carousel.cards?.length ?? 0;
    if (cards.length !== expected) {
      throw new FakeGraphError(400, 132000, '(#132000) Number of parameters does not match the expected number of params', 'OAuthException', undefined, `carousel: number of cards (${cards.length}) does not match the expected number of cards (${expected})`);
    }
  }
}

function validateTemplate(body: Json, templates: FakeTemplate[]): string {
  const template = requireObject(body, 'template', 'template');
  const name = requireText(template, 'name', "template['name']");
  const language = requireObject(template, 'language', "template['language']");
  const code = requireText(language, 'code', "template['language']['code']");
  const found = templates.find((t) => t.name === name && t.language === code && t.status === 'APPROVED');
  if (!found) {
    throw new FakeGraphError(400, 132001, '(#132001) Template name does not exist in the translation', 'OAuthException', undefined, `template name (${name}) does not exist in ${code}`);
  }
  const components = Array.isArray(template.components) ? template.components.map(obj) : [];
  const bodyComponent = components.find((c) => c?.type === 'body' || c?.type === 'BODY');
  const parameters = Array.isArray(bodyComponent?.parameters) ? (bodyComponent!.parameters as unknown[]).map(obj) : [];
  const expected = placeholders(found);
  if (parameters.length !== expected) {
    throw new FakeGraphError(
      400,
      132000,
      '(#132000) Number of parameters does not match the expected number of params',
      'OAuthException',
      undefined,
      `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${expected})`,
    );
  }
  const values = parameters.map((p, i) => {
    if (p?.type !== 'text' || typeof p.text !== 'string' || !p.text) throw missingParameter(`template['components'][0]['parameters'][${i}]['text']`);
    return p.text;
  });
  checkHeaderAndCards(found, components);
  const rendered = (found.components.find((c) => c.type === 'BODY')?.text ?? '').replace(/\{\{\s*(\d+)\s*\}\}/g, (_m, n: string) => values[Number(n) - 1]);
  return `[template ${name}] ${rendered}`;
}

function validateInteractive(body: Json): string {
  const interactive = requireObject(body, 'interactive', 'interactive');
  const kind = requireText(interactive, 'type', "interactive['type']");
  const bodyText = requireText(requireObject(interactive, 'body', "interactive['body']"), 'text', "interactive['body']['text']", 1024);
  const header = obj(interactive.header);
  if (header && header.type === 'text') requireText(header, 'text', "interactive['header']['text']", 60);
  const footer = obj(interactive.footer);
  if (footer) requireText(footer, 'text', "interactive['footer']['text']", 60);
  const action = requireObject(interactive, 'action', "interactive['action']");

  if (kind === 'button') {
    const buttons = Array.isArray(action.buttons) ? action.buttons.map(obj) : null;
    if (!buttons || buttons.length === 0) throw missingParameter("interactive['action']['buttons']");
    if (buttons.length > 3) throw invalidValue('Buttons count invalid. Min: 1, Max: 3');
    const titles = buttons.map((b, i) => {
      const reply = b && b.type === 'reply' ? obj(b.reply) : null;
      if (!reply) throw missingParameter(`interactive['action']['buttons'][${i}]['reply']`);
      requireText(reply, 'id', `interactive['action']['buttons'][${i}]['reply']['id']`, 256);
      return requireText(reply, 'title', 'Button title', 20);
    });
    return `${bodyText} [${titles.join(' | ')}]`;
  }
  if (kind === 'list') {
    requireText(action, 'button', "interactive['action']['button']", 20);
    const sections = Array.isArray(action.sections) ? action.sections.map(obj) : null;
    if (!sections || sections.length === 0) throw missingParameter("interactive['action']['sections']");
    if (sections.length > 10) throw invalidValue('Sections count invalid. Min: 1, Max: 10');
    const rows = sections.flatMap((s, i) => {
      if (sections.length > 1) requireText(s ?? {}, 'title', `interactive['action']['sections'][${i}]['title']`, 24);
      return Array.isArray(s?.rows) ? s!.rows.map(obj) : [];
    });
    if (rows.length === 0 || rows.length > 10) throw invalidValue(`Total row count exceed max allowed count: 10`);
    const titles = rows.map((r) => {
      requireText(r ?? {}, 'id', 'Row id', 200);
      if (r?.description !== undefined) requireText(r, 'description', 'Row description', 72);
      return requireText(r ?? {}, 'title', 'Row title', 24);
    });
    return `${bodyText} [list: ${titles.join(' | ')}]`;
  }
  throw invalidParameter(`Interactive type ${kind} is not supported by this fake (button, list).`);
}

/** POST /{phone-number-id}/messages. */
export function validateWhatsAppSend(body: Json, templates: FakeTemplate[]): ValidatedWhatsAppSend {
  const product = text(body.messaging_product);
  if (!product) throw missingParameter('messaging_product');
  if (product !== 'whatsapp') throw invalidParameter(`Param messaging_product must be one of {WHATSAPP} - got "${product}".`);
  const to = text(body.to)?.replace(/[\s()+-]/g, '');
  if (!to) throw missingParameter('to');
  if (!/^\d{5,20}$/.test(to)) throw new FakeGraphError(400, 131030, '(#131030) Recipient phone number not in allowed list', 'OAuthException', undefined, `${to} is not a valid phone number.`);
  const type = text(body.type) ?? 'text';
  if (!WHATSAPP_TYPES.includes(type)) {
    throw invalidParameter(`Param type must be one of {${WHATSAPP_TYPES.map((t) => t.toUpperCase()).join(', ')}} - got "${type}".`);
  }

  let summary: string;
  if (type === 'text') {
    summary = requireText(requireObject(body, 'text', 'text'), 'body', "text['body']", 4096);
  } else if (MEDIA_TYPES.has(type)) {
    const media = requireObject(body, type, type);
    const link = text(media.link);
    const id = text(media.id);
    if (!link && !id) throw missingParameter(`${type}['link'] or ${type}['id']`);
    if (link && !/^https?:\/\//.test(link)) throw invalidParameter(`${type}['link'] must be an http(s) URL.`);
    if (media.caption !== undefined && (type === 'audio' || type === 'sticker')) throw invalidParameter(`Param ${type}['caption'] is not allowed for ${type}.`);
    summary = `[${type}] ${text(media.caption) ?? link ?? id}`;
  } else if (type === 'interactive') {
    summary = validateInteractive(body);
  } else if (type === 'template') {
    summary = validateTemplate(body, templates);
  } else {
    requireObject(body, type, type);
    summary = `[${type}]`;
  }
  return { to, type, isTemplate: type === 'template', summary };
}

/** Instagram's text: UTF-8, 1000 bytes at most (Meta's "Send a Message" for Instagram); Messenger's: 2000 characters. */
export const INSTAGRAM_TEXT_MAX_BYTES = 1000;

/** POST /{page-id}/messages (Messenger, and Instagram to the linked account's customers). */
export function validateMessengerSend(body: Json, platform: 'messenger' | 'instagram' = 'messenger'): { recipientId: string; summary: string; senderAction: string | null } {
  const recipient = obj(body.recipient);
  const recipientId = text(recipient?.id);
  if (!recipientId) throw new FakeGraphError(400, 100, '(#100) The parameter recipient is required');
  const senderAction = text(body.sender_action);
  if (senderAction) return { recipientId, summary: `[${senderAction}]`, senderAction };
  const message = obj(body.message);
  if (!message) throw new FakeGraphError(400, 100, '(#100) Must send either message or sender_action');
  const messagingType = text(body.messaging_type) ?? 'RESPONSE';
  if (!['RESPONSE', 'UPDATE', 'MESSAGE_TAG'].includes(messagingType)) throw new FakeGraphError(400, 100, `(#100) Param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG} - got "${messagingType}".`);

  const quickReplies = Array.isArray(message.quick_replies) ? message.quick_replies.map(obj) : [];
  if (quickReplies.length > 13) throw new FakeGraphError(400, 100, '(#100) param message[quick_replies] must have at most 13 elements');
  for (const reply of quickReplies) {
    if (reply?.content_type === 'text' && (!text(reply.title) || text(reply.title)!.length > 20)) {
      throw new FakeGraphError(400, 100, '(#100) Quick reply title must be 1 to 20 characters');
    }
  }
  const messageText = text(message.text);
  if (messageText !== null) {
    if (!messageText) throw new FakeGraphError(400, 100, '(#100) Param message[text] must be non-empty.');
    if (messageText.length > 2000) throw new FakeGraphError(400, 100, '(#100) Length of param message[text] must be less than or equal to 2000');
    if (platform === 'instagram' && Buffer.byteLength(messageText, 'utf8') > INSTAGRAM_TEXT_MAX_BYTES) {
      throw new FakeGraphError(400, 100, `(#100) Length of param message[text] must be less than or equal to ${INSTAGRAM_TEXT_MAX_BYTES} bytes`);
    }
    const suffix = quickReplies.length ? ` [${quickReplies.map((r) => text(r?.title)).join(' | ')}]` : '';
    return { recipientId, summary: messageText + suffix, senderAction: null };
  }
  const attachment = obj(message.attachment);
  const payload = obj(attachment?.payload);
  if (!attachment || !payload) throw new FakeGraphError(400, 100, '(#100) Message cannot be empty, must provide valid attachment or text');
  const type = text(attachment.type);
  if (type === 'template') {
    const buttons = Array.isArray(payload.buttons) ? payload.buttons.map(obj) : [];
    if (payload.template_type === 'button') {
      const templateText = text(payload.text);
      if (!templateText || templateText.length > 640) throw new FakeGraphError(400, 100, '(#100) Param message[attachment][payload][text] must be 1 to 640 characters');
      if (buttons.length < 1 || buttons.length > 3) throw new FakeGraphError(400, 100, '(#100) param message[attachment][payload][buttons] must have 1 to 3 elements');
      for (const button of buttons) {
        if (!text(button?.title) || text(button!.title)!.length > 20) throw new FakeGraphError(400, 100, '(#100) Button title must be 1 to 20 characters');
      }
      return { recipientId, summary: `${templateText} [${buttons.map((b) => text(b?.title)).join(' | ')}]`, senderAction: null };
    }
    return { recipientId, summary: `[template ${String(payload.template_type)}]`, senderAction: null };
  }
  if (!type || !['image', 'video', 'audio', 'file'].includes(type)) {
    throw new FakeGraphError(400, 100, `(#100) Param message[attachment][type] must be one of {image, video, audio, file, template} - got "${type}".`);
  }
  const url = text(payload.url);
  if (!url && !text(payload.attachment_id)) throw new FakeGraphError(400, 100, '(#100) The parameter message[attachment][payload][url] is required');
  return { recipientId, summary: `[${type}] ${url ?? payload.attachment_id}`, senderAction: null };
}
