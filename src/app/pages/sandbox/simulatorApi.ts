/** The customer simulator's calls (no login: the key in the link is the secret). */
import type { Message } from '../../../../contract/chats';
import type { HttpProvider } from '../../../core';

export interface SimulatorInfo {
  channel_id: number;
  channel_name: string;
  company_name: string;
}

export interface Customer {
  id: string;
  name: string;
}

export interface OutgoingSimulatorMessage {
  text?: string | null;
  media_url?: string | null;
  media_type?: string | null;
  button_reply?: { id: string; title: string } | null;
}

/** Polling interval of the chat view. */
export const POLL_INTERVAL_MS = 1000;
export const CUSTOMER_ID_PATTERN = /^[A-Za-z0-9._+@-]{1,100}$/;

const base = (key: string) => `/api/sandbox/${encodeURIComponent(key)}`;

export function simulatorApi(http: HttpProvider, key: string) {
  return {
    info: () => http.get<SimulatorInfo>(`${base(key)}/`, { auth: false }),
    messages: (customerId: string, afterId: number) =>
      http.get<{ messages: Message[]; blocked: boolean }>(`${base(key)}/conversations/${encodeURIComponent(customerId)}/messages/`, {
        auth: false,
        query: { after_id: afterId },
      }),
    send: (customer: Customer, message: OutgoingSimulatorMessage) =>
      http.post<{ message: Message }>(
        `${base(key)}/conversations/${encodeURIComponent(customer.id)}/messages/`,
        { name: customer.name, ...message, client_id: newClientId() },
        { auth: false },
      ),
  };
}

export function newClientId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

const storageKey = (key: string) => `sandbox:${key}:customer`;

export function loadCustomer(key: string): Customer | null {
  try {
    const raw = localStorage.getItem(storageKey(key));
    const parsed = raw ? (JSON.parse(raw) as Customer) : null;
    return parsed && typeof parsed.id === 'string' && typeof parsed.name === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function saveCustomer(key: string, customer: Customer | null): void {
  if (customer) localStorage.setItem(storageKey(key), JSON.stringify(customer));
  else localStorage.removeItem(storageKey(key));
}

/** Appends messages not seen yet (by id), keeping id order; a known id is replaced (status changes). */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Buttons a bot message offers (data.buttons: [{id, title}]). */
export function offeredButtons(message: Message): { id: string; title: string }[] {
  const buttons = (message.data as { buttons?: unknown } | null)?.buttons;
  if (!Array.isArray(buttons)) return [];
  return buttons.filter((b): b is { id: string; title: string } => !!b && typeof b.id === 'string' && typeof b.title === 'string');
}
