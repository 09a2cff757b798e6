/**
 * The demo's contacts (issue #23): the Demo Company's conversations get their contacts (as the
 * migration gives existing rooms theirs), three attributes are defined (city, orders, customer
 * since) and 200 more customers are added with values for them and a few tags, so the contacts page
 * has something to search, filter, sort and page through. Deterministic: the same 200 every time.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AttributeValue } from '../../../contract/contacts';
import type { Tx } from '../../core/db/client';
import { channels, tags } from '../../core/db/schema';
import { linkRooms } from './linking';
import { contactAttributes, contacts, contactTags } from './schema';


export const DEMO_CONTACT_COUNT = 200;
export const DEMO_CITIES = ['Lyon', 'Paris', 'Marseille', 'Lille', 'Bordeaux', 'Nantes'] as const;
export const DEMO_ATTRIBUTES = [
  { name: 'City', key: 'city', type: 'list' as const, options: [...DEMO_CITIES] },
  { name: 'Orders', key: 'orders', type: 'number' as const, options: [] },
  { name: 'Customer since', key: 'customer_since', type: 'date' as const, options: [] },
];
const DEMO_TAGS = ['vip', 'newsletter', 'wholesale'];

const FIRST = ['Camille', 'Louis', 'Chloé', 'Hugo', 'Inès', 'Jules', 'Léa', 'Nathan', 'Manon', 'Théo', 'Sarah', 'Adam', 'Emma', 'Lucas', 'Zoé', 'Gabriel', 'Alice', 'Arthur', 'Jade', 'Raphaël'];
const LAST = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];

/** The n-th demo customer (0-based): a French mobile number, a name, attributes and tags. */
export function demoContact(n: number): { name: string; phone: string; email: string | null; attributes: Record<string, AttributeValue>; tags: string[] } {
  const first = FIRST[n % FIRST.length];
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length];
  const since = new Date(Date.UTC(2022, 0, 1) + ((n * 7919) % 1400) * 86_400_000).toISOString().slice(0, 10);
  const tagNames = [n % 10 === 0 ? 'vip' : null, n % 3 === 0 ? 'newsletter' : null, n % 25 === 7 ? 'wholesale' : null].filter((t): t is string => t !== null);
  return {
    name: `${first} ${last}`,
    phone: `+336${String(10_000_000 + n * 37).padStart(8, '0')}`,
    email: n % 4 === 0 ? null : `${first}.${last}${n}@example.com`.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase(),
    attributes: { city: DEMO_CITIES[(n * 5) % DEMO_CITIES.length], orders: (n * 13) % 17, customer_since: since },
    tags: tagNames,
  };
}

export async function seedDemoContacts(tx: Tx, companyId: number, now = new Date()): Promise<void> {
  // The conversations the sandbox stored get their contacts first (their phones stay theirs).
  await linkRooms(tx, sql`r.company_id = ${companyId}`);
  // …and a city, so the inbox's contact panel shows an attribute from the start.
  await tx
    .update(contacts)
    .set({ attributes: { city: 'Lyon', orders: 1 } })
    .where(and(eq(contacts.companyId, companyId), sql`${contacts.attributes} = '{}'::jsonb`));
  await tx
    .insert(contactAttributes)
    .values(DEMO_ATTRIBUTES.map((a) => ({ companyId, ...a })))
    .onConflictDoNothing();
  await tx
    .insert(tags)
    .values(DEMO_TAGS.map((name) => ({ companyId, name })))
    .onConflictDoNothing();
  const tagRows = await tx.select({ id: tags.id, name: tags.name }).from(tags).where(eq(tags.companyId, companyId));
  const tagId = new Map(tagRows.map((t) => [t.name, t.id]));
  const [sandbox] = await tx
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.companyId, companyId), eq(channels.platform, 'sandbox')));
  const rows = Array.from({ length: DEMO_CONTACT_COUNT }, (_, n) => ({ n, ...demoContact(n) }));
  const inserted = await tx
    .insert(contacts)
    .values(
      rows.map((c) => ({
        companyId,
        name: c.name,
        phone: c.phone,
        email: c.email,
        // Half of them wrote on the sandbox channel once (the channel filter has something to find).
        pageId: c.n % 2 === 0 && sandbox ? sandbox.id : null,
        platform: c.n % 2 === 0 && sandbox ? ('sandbox' as const) : null,
        externalId: c.n % 2 === 0 && sandbox ? c.phone : null,
        attributes: c.attributes,
        createdAt: new Date(now.getTime() - (c.n + 1) * 3_600_000 * 7),
        // No conversation of theirs is stored, so no last message: a date here showed on a contact whose page then
        // said "No conversation yet" (the sandbox's own customers, linked above, keep their conversations' dates).
        lastMessageAt: null,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: contacts.id, phone: contacts.phone });
  const byPhone = new Map(rows.map((r) => [r.phone, r]));
  const links = inserted.flatMap((c) => (byPhone.get(c.phone!)?.tags ?? []).map((name) => ({ contactId: c.id, tagId: tagId.get(name)! })));
  if (links.length) await tx.insert(contactTags).values(links).onConflictDoNothing();
}
