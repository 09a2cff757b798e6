/** Test helpers of the contacts plugin: contacts as the API answers them and a fake API over a list of them. */
import type { Contact, ContactAttribute } from '../../../contract/contacts';
import { HttpError } from '../../core';
import { createFakeHttp } from '../../core/testing/fakeHttp';

export function contact(id: number, name: string, extra: Partial<Contact> = {}): Contact {
  return {
    id,
    name,
    phone: null,
    email: null,
    external_id: null,
    page_id: null,
    platform: null,
    attributes: {},
    tags: [],
    opted_out: false,
    rooms: [],
    created_at: '2026-11-01T10:00:00Z',
    last_message_at: null,
    ...extra,
  };
}

export const cityAttribute: ContactAttribute = { id: 1, name: 'City', key: 'city', type: 'list', options: ['Lyon', 'Paris'], created_at: '2026-11-01T10:00:00Z' };

/** The contacts API over `contacts` (list filtered by `search` on the name; PATCH merges; POST answers 409 for a known phone). */
export function fakeContactsApi(initial: Contact[], attributes: ContactAttribute[] = [cityAttribute]) {
  let list = [...initial];
  return createFakeHttp((method, path, options) => {
    const body = (options.body ?? {}) as Record<string, unknown>;
    if (path === '/api/tags/') return { count: 1, results: [{ id: 9, name: 'vip' }] };
    if (path === '/api/channels/') return { count: 1, results: [{ id: 5, name: 'Sandbox', platform: 'sandbox' }] };
    if (path === '/api/contact-attributes/' && method === 'GET') return { count: attributes.length, results: attributes };
    if (path === '/api/contacts/' && method === 'GET') {
      const term = String(options.query?.search ?? '').toLowerCase();
      const found = list.filter((c) => c.name.toLowerCase().includes(term));
      return { count: found.length, next: null, previous: null, results: found };
    }
    if (path === '/api/contacts/' && method === 'POST') {
      const existing = list.find((c) => c.phone && c.phone === body.phone);
      if (existing) throw new HttpError(409, { detail: 'A contact with this phone number already exists.', code: 'contact_exists', id: existing.id });
      const made = contact(100 + list.length, String(body.name), { phone: (body.phone as string) ?? null });
      list = [...list, made];
      return made;
    }
    const room = /^\/api\/rooms\/(\d+)\/contact\/$/.exec(path);
    if (room) return list.find((c) => c.rooms.some((r) => r.id === Number(room[1])));
    const one = /^\/api\/contacts\/(\d+)\/$/.exec(path);
    if (one) {
      const index = list.findIndex((c) => c.id === Number(one[1]));
      if (index < 0) throw new HttpError(404, { detail: 'Not found.' });
      if (method === 'GET') return list[index];
      if (method === 'PATCH') {
        const current = list[index];
        const next = { ...current, ...body, attributes: { ...current.attributes, ...((body.attributes as object) ?? {}) } } as Contact;
        list = list.map((c, i) => (i === index ? next : c));
        return next;
      }
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}
