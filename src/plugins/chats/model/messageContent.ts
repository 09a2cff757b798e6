/**
 * What a message shows, by its type: the channel's payload (`data`) read defensively, since each
 * channel and the bot deliver slightly different shapes (contract/chats.ts Message.data).
 */
import type { Message } from '../../../../contract/chats';
import { orderOf, type Order } from '../../../../contract/customerEvents';

export interface SharedContact {
  name: string;
  phones: string[];
}

export type MessageContent =
  | { kind: 'text'; text: string }
  | { kind: 'template'; text: string; name: string | null }
  | { kind: 'reply'; via: 'button' | 'list'; title: string }
  | { kind: 'location'; latitude: number; longitude: number; name: string | null; address: string | null; mapUrl: string }
  | { kind: 'contacts'; contacts: SharedContact[] }
  | { kind: 'interactive'; text: string; buttons: string[] }
  /** Issue #25: a WhatsApp order (a cart from the catalogue), shown as a card. */
  | ({ kind: 'order' } & Order);

type Data = Record<string, unknown>;

function obj(v: unknown): Data | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Data) : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : null;
}

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** OpenStreetMap centred on the point, zoom 16. */
export function openStreetMapUrl(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
}

/** The template name a template message carries ({template: {name}} as sent, or a flat name). */
export function templateName(data: Data | null): string | null {
  return str(obj(data?.template)?.name) ?? str(data?.name) ?? str(data?.template_name) ?? str(data?.template);
}

function buttonTitle(b: unknown): string | null {
  if (typeof b === 'string') return str(b);
  const o = obj(b);
  if (!o) return null;
  return str(o.title) ?? str(o.text) ?? str(obj(o.reply)?.title) ?? str(o.label);
}

/** Button titles of an interactive message: flat buttons/options, WhatsApp's action.buttons, or list rows. */
export function interactiveButtons(data: Data | null): string[] {
  if (!data) return [];
  const action = obj(data.action);
  const flat = [data.buttons, data.options, action?.buttons].find(Array.isArray) as unknown[] | undefined;
  if (flat) return flat.map(buttonTitle).filter((x): x is string => !!x);
  const sections = Array.isArray(action?.sections) ? (action!.sections as unknown[]) : Array.isArray(data.sections) ? (data.sections as unknown[]) : [];
  return sections.flatMap((s) => (Array.isArray(obj(s)?.rows) ? (obj(s)!.rows as unknown[]) : [])).map(buttonTitle).filter((x): x is string => !!x);
}

function interactiveBody(data: Data | null): string | null {
  if (!data) return null;
  return str(data.body) ?? str(obj(data.body)?.text) ?? str(data.text);
}

function contactsOf(data: Data | null): SharedContact[] {
  const list = Array.isArray(data?.contacts) ? (data!.contacts as unknown[]) : [];
  return list
    .map((c) => {
      const o = obj(c) ?? {};
      const n = obj(o.name);
      const name = str(n?.formatted_name) ?? ([str(n?.first_name), str(n?.last_name)].filter(Boolean).join(' ') || str(o.name) || '');
      const phones = (Array.isArray(o.phones) ? (o.phones as unknown[]) : []).map((p) => str(obj(p)?.phone) ?? str(obj(p)?.wa_id) ?? str(p)).filter((x): x is string => !!x);
      return { name, phones };
    })
    .filter((c) => c.name || c.phones.length);
}

/** The content to render for a message; unknown payloads fall back to their text (or JSON). */
export function messageContent(message: Pick<Message, 'type' | 'text' | 'data'>): MessageContent {
  const data = obj(message.data);
  const fallback = message.text ?? (data ? JSON.stringify(data) : '');
  const order = message.type === 'text' ? orderOf(data) : null;
  if (order) return { kind: 'order', ...order };
  switch (message.type) {
    case 'template':
      return { kind: 'template', text: message.text ?? '', name: templateName(data) };
    case 'button_reply':
    case 'list_reply':
      return { kind: 'reply', via: message.type === 'button_reply' ? 'button' : 'list', title: str(message.text) ?? str(data?.title) ?? str(data?.id) ?? '' };
    case 'location': {
      const latitude = num(data?.latitude);
      const longitude = num(data?.longitude);
      if (latitude === null || longitude === null) break;
      return { kind: 'location', latitude, longitude, name: str(data?.name), address: str(data?.address), mapUrl: openStreetMapUrl(latitude, longitude) };
    }
    case 'contacts': {
      const contacts = contactsOf(data);
      if (!contacts.length) break;
      return { kind: 'contacts', contacts };
    }
    case 'interactive':
      return { kind: 'interactive', text: str(message.text) ?? interactiveBody(data) ?? '', buttons: interactiveButtons(data) };
  }
  return { kind: 'text', text: fallback };
}
